package io.github.idempotency.jdbc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.TestDataSources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A claim that replaces an expired record of an archived operation archives it first, with its
 * response; nothing else archives.
 */
abstract class ArchiveOnTakeOverContractTests {

	static final Duration LEASE = Duration.ofSeconds(30);

	static final Duration TTL = Duration.ofHours(1);

	JdbcIdempotencyStore store;

	TestRecords records;

	JdbcTemplate jdbc;

	protected abstract DataSource dataSource();

	@BeforeEach
	void setUp() {
		this.jdbc = new JdbcTemplate(dataSource());
		this.store = TestDataSources.store(dataSource());
		this.records = new TestRecords(this.jdbc, DatabasePlatform.of(dataSource()));
		this.records.deleteAll();
	}

	@Test
	void claimOfAnExpiredRecordOfAnArchivedOperationArchivesItWithItsResponse() {
		IdempotencyKey key = key("payments");
		UUID oldToken = completed(key, true);
		expire(key);
		List<Map<String, Object>> expired = this.records.snapshot("idempotency_record", "idempotency_key = ?",
				key.key());
		ClaimResult result = this.store.claim(new ClaimRequest(key, "second", LEASE, TTL, true));
		assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
		assertThat(((ClaimResult.Claimed) result).takenOver()).isFalse();
		assertThat(this.records.snapshot("idempotency_record_archive", "idempotency_key = ?", key.key()))
			.isEqualTo(expired);
		assertThat(expired.get(0).get("fencing_token")).isEqualTo(oldToken);
		assertThat(expired.get(0).get("response_body")).isEqualTo("{\"paid\":true}");
		assertThat(this.records.count("idempotency_key = ? AND status = 'IN_PROGRESS' AND request_fingerprint = ? "
				+ "AND fencing_token = ?", key.key(), "second", ((ClaimResult.Claimed) result).token()))
			.isEqualTo(1);
	}

	@Test
	void claimOfAnExpiredRecordArchivesItsReferencesForAnArchivedOperationAndForgetsThem() {
		for (String operation : List.of("payments", "orders")) {
			IdempotencyKey key = key(operation);
			completed(key, operation.equals("payments"));
			this.store.addReference(key, "gateway_transaction", "gw-" + operation, TTL);
			expire(key);
			assertThat(this.store.claim(new ClaimRequest(key, "second", LEASE, TTL, operation.equals("payments"))))
				.isInstanceOf(ClaimResult.Claimed.class);
			assertThat(this.store.references(key)).isEmpty();
		}
		assertThat(this.records.archivedReferences("1 = 1")).isOne();
		assertThat(this.records.archivedReferences("operation = 'payments' AND reference_value = 'gw-payments'"))
			.isOne();
	}

	/**
	 * A record released by a transient failure never had an effect: replacing it archives nothing,
	 * and its key starts again at attempt 1.
	 */
	@Test
	void claimOfAnExpiredReleasedRecordOfAnArchivedOperationArchivesNothing() {
		IdempotencyKey key = key("payments");
		ClaimResult.Claimed first = (ClaimResult.Claimed) this.store
			.claim(new ClaimRequest(key, "first", LEASE, TTL, true));
		assertThat(this.store.release(key, first.token(), "status 503")).isTrue();
		expire(key);
		ClaimResult result = this.store.claim(new ClaimRequest(key, "second", LEASE, TTL, true));
		assertThat(result).isInstanceOfSatisfying(ClaimResult.Claimed.class,
				(claimed) -> assertThat(claimed.attempt()).isOne());
		assertThat(this.records.archived("1 = 1")).isZero();
	}

	@Test
	void claimOfAnExpiredRecordOfAnOperationThatIsNotArchivedArchivesNothing() {
		IdempotencyKey key = key("orders");
		completed(key, false);
		expire(key);
		assertThat(this.store.claim(new ClaimRequest(key, "second", LEASE, TTL, false)))
			.isInstanceOf(ClaimResult.Claimed.class);
		assertThat(this.records.archived("1 = 1")).isZero();
	}

	@Test
	void takingOverARunOutLeaseArchivesNothing() {
		IdempotencyKey key = key("payments");
		this.store.claim(new ClaimRequest(key, "first", LEASE, TTL, true));
		this.jdbc.update("UPDATE idempotency_record SET locked_until = created_at WHERE idempotency_key = ?",
				key.key());
		ClaimResult result = this.store.claim(new ClaimRequest(key, "first", LEASE, TTL, true));
		assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
		assertThat(((ClaimResult.Claimed) result).takenOver()).isTrue();
		assertThat(this.records.archived("1 = 1")).isZero();
	}

	@Test
	void claimOfALiveRecordArchivesNothing() {
		IdempotencyKey key = key("payments");
		completed(key, true);
		assertThat(this.store.claim(new ClaimRequest(key, "first", LEASE, TTL, true)))
			.isInstanceOf(ClaimResult.Existing.class);
		assertThat(this.records.archived("1 = 1")).isZero();
	}

	IdempotencyKey key(String operation) {
		return new IdempotencyKey(TestRecords.TENANT, operation, "key-" + UUID.randomUUID());
	}

	UUID completed(IdempotencyKey key, boolean archive) {
		UUID token = ((ClaimResult.Claimed) this.store.claim(new ClaimRequest(key, "first", LEASE, TTL, archive)))
			.token();
		this.store.complete(key, token, new StoredResponse(201, Map.of("Content-Type", List.of("application/json")),
				"{\"paid\":true}".getBytes(StandardCharsets.UTF_8)), TTL);
		return token;
	}

	void expire(IdempotencyKey key) {
		this.jdbc.update("UPDATE idempotency_record SET expires_at = created_at WHERE idempotency_key = ?", key.key());
	}

}
