package io.github.idempotency.jdbc;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.testsupport.store.IdempotencyStoreContractTests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link JdbcIdempotencyStore} against the published store contract, plus what only the JDBC store
 * promises.
 */
abstract class AbstractJdbcIdempotencyStoreTests extends IdempotencyStoreContractTests {

	/**
	 * The JDBC store keeps an expired record in its table, as stored, until the purge deletes it.
	 */
	@Test
	void findReturnsAnExpiredRecordAsStored() {
		IdempotencyKey key = key("find-expired-jdbc");
		UUID token = claim(key, FINGERPRINT_A);
		assertThat(store().complete(key, token, response(200, bytes("kept")), shortTime())).isTrue();
		IdempotencyRecord completed = store().find(key).orElseThrow();
		awaitExpiry(key);
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record).isEqualTo(completed);
		assertThat(record.expiresAt()).isBefore(storeTime());
		assertThat(record.response().body()).isEqualTo(bytes("kept"));
	}

}
