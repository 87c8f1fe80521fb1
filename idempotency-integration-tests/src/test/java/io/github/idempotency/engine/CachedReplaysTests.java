package io.github.idempotency.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.ForwardingIdempotencyStore;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replay cache of {@link IdempotencyEngine} over the JDBC store on PostgreSQL: which replays
 * it answers without the store, and which records it never holds.
 */
class CachedReplaysTests {

	private static final String OPERATION = "POST /payments";

	private static final String FINGERPRINT = KeyHashes.sha256Hex("payment of 100 EUR");

	private static HikariDataSource dataSource;

	private static JdbcTemplate jdbc;

	private static DataSourceTransactionManager transactionManager;

	private final CountingStore store = new CountingStore(TestDataSources.store(dataSource));

	private final LeaseHeartbeat heartbeat = new LeaseHeartbeat(this.store);

	private final IdempotencyEngine engine = new IdempotencyEngine(this.store, new IdempotencyListener() {
	}, new IdempotencyTransactions(transactionManager, null), this.heartbeat, null,
			new CachedReplays(1_000, 1_000_000, Duration.ofMinutes(10)));

	private final IdempotencyKey key = new IdempotencyKey("tenant-" + UUID.randomUUID(), OPERATION, "key-1");

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("cached_replays"), 8);
		TestDataSources.migrate(dataSource);
		jdbc = new JdbcTemplate(dataSource);
		transactionManager = new DataSourceTransactionManager(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@AfterEach
	void stopHeartbeat() {
		this.heartbeat.close();
	}

	@Test
	void replaysAfterTheFirstAreAnsweredWithoutTheStore() {
		StoredResponse response = response("created");
		complete(IdempotencyMode.LEASED, Duration.ofHours(1), response);
		assertReplay(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED, Duration.ofHours(1))),
				response);
		int claims = this.store.claims.get();
		for (int i = 0; i < 3; i++) {
			assertReplay(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED, Duration.ofHours(1))),
					response);
		}
		assertThat(this.store.claims.get()).isEqualTo(claims);
	}

	@Test
	void aCachedRecordIsReplayedEvenAfterItsRowWasDeletedByHandUntilItsMaximumAge() {
		complete(IdempotencyMode.ATOMIC, Duration.ofHours(1), response("created"));
		this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.ATOMIC, Duration.ofHours(1)));
		jdbc.update("DELETE FROM idempotency_record WHERE tenant_id = ?", this.key.tenant());
		assertReplay(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.ATOMIC, Duration.ofHours(1))),
				response("created"));
	}

	@Test
	void anotherFingerprintIsAMismatchFromTheCache() {
		complete(IdempotencyMode.LEASED, Duration.ofHours(1), response("created"));
		this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED, Duration.ofHours(1)));
		int claims = this.store.claims.get();
		assertThat(this.engine.begin(this.key, KeyHashes.sha256Hex("payment of 200 EUR"),
				policy(IdempotencyMode.LEASED, Duration.ofHours(1))))
			.isInstanceOf(Decision.Mismatch.class);
		assertThat(this.store.claims.get()).isEqualTo(claims);
	}

	@Test
	void aRecordWithinAMinuteOfItsExpiryIsAlwaysAskedOfTheStore() {
		Duration ttl = Duration.ofSeconds(50);
		complete(IdempotencyMode.LEASED, ttl, response("created"));
		this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED, ttl));
		int claims = this.store.claims.get();
		this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED, ttl));
		assertThat(this.store.claims.get()).isEqualTo(claims + 1);
	}

	@Test
	void aCompletionSeenInsideTheCallersTransactionIsNotCachedAsItsRollbackUndoesIt() {
		// A short lease: the second call waits that long for the first's turn, which ends only with
		// the caller's transaction.
		OperationPolicy atomic = new OperationPolicy(OPERATION, IdempotencyMode.ATOMIC, Duration.ofHours(1),
				Duration.ofSeconds(1), Duration.ZERO, false);
		new TransactionTemplate(transactionManager).executeWithoutResult((caller) -> {
			Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, atomic));
			execution.complete(response("created"), false);
			// The caller's own completion, not committed: a replay inside the caller's transaction.
			assertReplay(this.engine.begin(this.key, FINGERPRINT, atomic), response("created"));
			caller.setRollbackOnly();
		});
		Execution again = proceed(this.engine.begin(this.key, FINGERPRINT, atomic));
		again.release();
	}

	@Test
	void aRecordInProgressIsNeverCached() {
		Execution execution = proceed(
				this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED, Duration.ofHours(1))));
		assertThat(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED, Duration.ofHours(1))))
			.isInstanceOf(Decision.InProgress.class);
		execution.release();
		proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED, Duration.ofHours(1))))
			.release();
	}

	private void complete(IdempotencyMode mode, Duration ttl, StoredResponse response) {
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(mode, ttl)));
		assertThat(execution.complete(response, false)).isEqualTo(Completion.STORED);
	}

	private static void assertReplay(Decision decision, StoredResponse response) {
		assertThat(decision).isInstanceOfSatisfying(Decision.Replay.class,
				(replay) -> assertThat(replay.response()).isEqualTo(response));
	}

	private static OperationPolicy policy(IdempotencyMode mode, Duration ttl) {
		return new OperationPolicy(OPERATION, mode, ttl, Duration.ofMinutes(1), Duration.ZERO, false);
	}

	private static Execution proceed(Decision decision) {
		assertThat(decision).isInstanceOf(Decision.Proceed.class);
		return ((Decision.Proceed) decision).execution();
	}

	private static StoredResponse response(String body) {
		return new StoredResponse(201, Map.of("Content-Type", List.of("text/plain")),
				body.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Counts the claims that reach the store.
	 */
	private static final class CountingStore extends ForwardingIdempotencyStore {

		final AtomicInteger claims = new AtomicInteger();

		CountingStore(IdempotencyStore delegate) {
			super(delegate);
		}

		@Override
		public ClaimResult claim(ClaimRequest request) {
			this.claims.incrementAndGet();
			return super.claim(request);
		}

	}

}
