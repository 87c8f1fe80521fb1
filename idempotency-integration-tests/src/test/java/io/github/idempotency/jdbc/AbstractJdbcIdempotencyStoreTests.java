package io.github.idempotency.jdbc;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.ReferencingIdempotencyStore;
import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.testsupport.store.IdempotencyStoreContractTests;
import io.github.idempotency.testsupport.store.ReferencingIdempotencyStoreContractTests;
import io.github.idempotency.testsupport.store.SequencingIdempotencyStoreContractTests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link JdbcIdempotencyStore} against the published store contract and its sequence and reference
 * parts, plus what only the JDBC store promises.
 */
abstract class AbstractJdbcIdempotencyStoreTests extends IdempotencyStoreContractTests {

	@Override
	protected abstract JdbcIdempotencyStore store();

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

	@Nested
	class Sequences extends SequencingIdempotencyStoreContractTests {

		@Override
		protected SequencingIdempotencyStore store() {
			return AbstractJdbcIdempotencyStoreTests.this.store();
		}

		@Override
		protected Duration shortTime() {
			return AbstractJdbcIdempotencyStoreTests.this.shortTime();
		}

		@Override
		protected int threads() {
			return AbstractJdbcIdempotencyStoreTests.this.threads();
		}

	}

	@Nested
	class References extends ReferencingIdempotencyStoreContractTests {

		@Override
		protected ReferencingIdempotencyStore store() {
			return AbstractJdbcIdempotencyStoreTests.this.store();
		}

		@Override
		protected Duration shortTime() {
			return AbstractJdbcIdempotencyStoreTests.this.shortTime();
		}

		@Override
		protected int threads() {
			return AbstractJdbcIdempotencyStoreTests.this.threads();
		}

	}

}
