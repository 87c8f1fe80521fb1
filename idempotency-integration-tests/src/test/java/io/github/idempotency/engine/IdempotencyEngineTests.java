package io.github.idempotency.engine;

import io.github.idempotency.jdbc.JdbcTestSupport;
import io.github.idempotency.KeyHashes;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.Outcome;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.ForwardingIdempotencyStore;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The decisions of {@link IdempotencyEngine} over the JDBC store on PostgreSQL.
 */
class IdempotencyEngineTests {

	private static final String OPERATION = "POST /payments";

	private static final String FINGERPRINT = KeyHashes.sha256Hex("payment of 100 EUR");

	private static final String OTHER_FINGERPRINT = KeyHashes.sha256Hex("payment of 200 EUR");

	private static final Duration LEASE = Duration.ofMinutes(1);

	private static HikariDataSource dataSource;

	private static JdbcTemplate jdbc;

	private static DataSourceTransactionManager transactionManager;

	private final RecordingListener listener = new RecordingListener();

	private final ObservedStore store = new ObservedStore(TestDataSources.store(dataSource));

	private final LeaseHeartbeat heartbeat = new LeaseHeartbeat(this.store);

	private final IdempotencyEngine engine = new IdempotencyEngine(this.store, this.listener,
			new IdempotencyTransactions(transactionManager, null), this.heartbeat);

	private final IdempotencyKey key = new IdempotencyKey("tenant-" + UUID.randomUUID(), OPERATION, "key-1");

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("engine"), 8);
		TestDataSources.migrate(dataSource);
		jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("CREATE TABLE engine_effect (id BIGSERIAL PRIMARY KEY, tenant VARCHAR(255) NOT NULL)");
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
	void firstRequestProceedsWithTheTokenOfItsClaim() {
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		assertThat(execution.key()).isEqualTo(this.key);
		assertThat(execution.takenOver()).isFalse();
		IdempotencyRecord record = this.store.find(this.key).orElseThrow();
		assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS);
		assertThat(record.token()).isEqualTo(execution.token());
		assertThat(this.listener.events).containsExactly("started " + OPERATION + " takenOver=false");
		execution.release();
	}

	@Test
	void aCompletionThatStoredWhileItsAnswerWasLostIsStoredNotTakenOver() {
		this.store.completionsSentTwice = true;
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		StoredResponse response = response(201, "created");
		assertThat(execution.complete(response, false)).isEqualTo(Completion.STORED);
		assertThat(this.listener.outcomes()).containsExactly(Outcome.EXECUTED);
		Decision decision = this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED));
		assertThat(decision).isInstanceOfSatisfying(Decision.Replay.class,
				(replay) -> assertThat(replay.response()).isEqualTo(response));
	}

	@Test
	void aCompletionSentTwiceAfterItsLeaseWasTakenOverIsStillNotStored() {
		this.store.completionsSentTwice = true;
		Execution stalled = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		runOutLease();
		Execution retry = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		assertThat(stalled.complete(response(200, "stalled"), false)).isEqualTo(Completion.TAKEN_OVER);
		assertThat(retry.complete(response(201, "retry"), false)).isEqualTo(Completion.STORED);
		assertThat(this.store.find(this.key).orElseThrow().response()).isEqualTo(response(201, "retry"));
	}

	@Test
	void completedRequestIsReplayed() {
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		StoredResponse response = response(201, "created");
		assertThat(execution.complete(response, false)).isEqualTo(Completion.STORED);
		Decision decision = this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED));
		assertThat(decision).isInstanceOfSatisfying(Decision.Replay.class,
				(replay) -> assertThat(replay.response()).isEqualTo(response));
		assertThat(this.listener.outcomes()).containsExactly(Outcome.EXECUTED, Outcome.REPLAYED);
	}

	@Test
	void duplicateOfARequestInProgressIsRefusedWithTheRemainingLease() {
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		Decision decision = this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED));
		assertThat(decision).isInstanceOfSatisfying(Decision.InProgress.class,
				(inProgress) -> assertThat(inProgress.retryAfter()).isPositive().isLessThanOrEqualTo(LEASE));
		assertThat(this.listener.outcomes()).containsExactly(Outcome.CONFLICT);
		execution.release();
	}

	@Test
	void keyReusedForADifferentCompletedRequestIsAMismatch() {
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		execution.complete(response(201, "created"), false);
		assertThat(this.engine.begin(this.key, OTHER_FINGERPRINT, policy(IdempotencyMode.LEASED)))
			.isInstanceOf(Decision.Mismatch.class);
		assertThat(this.listener.outcomes()).containsExactly(Outcome.EXECUTED, Outcome.MISMATCH);
	}

	@Test
	void keyReusedForADifferentRequestInProgressIsAMismatch() {
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		assertThat(this.engine.begin(this.key, OTHER_FINGERPRINT, policy(IdempotencyMode.LEASED)))
			.isInstanceOf(Decision.Mismatch.class);
		execution.release();
	}

	@Test
	void releasedRequestRunsAgainOnRetry() {
		Execution first = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		first.release();
		assertThat(this.store.find(this.key).orElseThrow().status()).isEqualTo(RecordStatus.RELEASED);
		Execution retry = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		assertThat(retry.token()).isNotEqualTo(first.token());
		assertThat(retry.takenOver()).isFalse();
		assertThat(this.listener.outcomes()).containsExactly(Outcome.RELEASED);
		retry.release();
	}

	@Test
	void runOutLeaseIsTakenOverAndTheFormerOwnerCannotComplete() {
		Execution stalled = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		runOutLease();
		Execution retry = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		assertThat(retry.takenOver()).isTrue();
		assertThat(retry.token()).isNotEqualTo(stalled.token());
		assertThat(stalled.complete(response(200, "stalled"), false)).isEqualTo(Completion.TAKEN_OVER);
		assertThat(retry.complete(response(201, "retry"), false)).isEqualTo(Completion.STORED);
		assertThat(this.store.find(this.key).orElseThrow().response()).isEqualTo(response(201, "retry"));
		assertThat(this.listener.events).contains("started " + OPERATION + " takenOver=true");
		assertThat(this.listener.outcomes()).containsExactly(Outcome.TAKEN_OVER, Outcome.EXECUTED);
	}

	@Test
	void executionEndsOnlyOnce() {
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
		execution.complete(response(201, "created"), false);
		assertThatIllegalStateException().isThrownBy(() -> execution.complete(response(500, "again"), false));
		assertThatIllegalStateException().isThrownBy(execution::release);
		assertThat(this.store.find(this.key).orElseThrow().response()).isEqualTo(response(201, "created"));
	}

	@Test
	void unreachableStoreIsReportedAsUnavailable() {
		DriverManagerDataSource unreachable = new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/none",
				"nobody", "");
		IdempotencyStore store = JdbcTestSupport.postgresStore(unreachable);
		try (LeaseHeartbeat heartbeat = new LeaseHeartbeat(store)) {
			IdempotencyEngine engine = new IdempotencyEngine(store, this.listener, new IdempotencyTransactions(null, null),
					heartbeat);
			assertThatExceptionOfType(IdempotencyStoreUnavailableException.class)
				.isThrownBy(() -> engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)))
				.satisfies((ex) -> {
					assertThat(ex.getBody().getType()).hasToString("urn:problem-type:idempotency:store-unavailable");
					assertThat(ex.getRetryAfter()).isPositive();
				});
		}
	}

	@Test
	void aTenantWhoseClaimsFailedWhileItsDatabaseWasDownIsNotRefusedOnceItIsBack() {
		PostgresTestDatabase database = PostgresTestDatabase.create("outage");
		DriverManagerDataSource unpooled = new DriverManagerDataSource(database.url(), database.username(),
				database.password());
		TestDataSources.migrate(unpooled);
		IdempotencyStore store = TestDataSources.store(unpooled);
		try (LeaseHeartbeat heartbeat = new LeaseHeartbeat(store)) {
			IdempotencyEngine engine = new IdempotencyEngine(store, this.listener, new IdempotencyTransactions(null, null),
					heartbeat, new KeySpaceGuard(0, Duration.ofHours(1), 2));
			allowConnections(database, false);
			for (int i = 0; i < 2; i++) {
				IdempotencyKey failed = new IdempotencyKey(this.key.tenant(), OPERATION, "failed-" + i);
				assertThatExceptionOfType(IdempotencyStoreUnavailableException.class)
					.isThrownBy(() -> engine.begin(failed, FINGERPRINT, policy(IdempotencyMode.LEASED)));
			}
			allowConnections(database, true);
			IdempotencyKey afterwards = new IdempotencyKey(this.key.tenant(), OPERATION, "after-the-outage");
			Execution execution = proceed(engine.begin(afterwards, FINGERPRINT, policy(IdempotencyMode.LEASED)));
			assertThat(execution.complete(response(201, "created"), false)).isEqualTo(Completion.STORED);
		}
		finally {
			allowConnections(database, true);
		}
	}

	@Test
	void duplicateWithAWaitGetsTheResultOfTheRequestInProgress() throws Exception {
		OperationPolicy waiting = new OperationPolicy(OPERATION, IdempotencyMode.LEASED, Duration.ofHours(1), LEASE,
				Duration.ofMinutes(1), false);
		Execution first = proceed(this.engine.begin(this.key, FINGERPRINT, waiting));
		CompletableFuture<Decision> duplicate = CompletableFuture
			.supplyAsync(() -> this.engine.begin(this.key, FINGERPRINT, waiting));
		assertThat(this.store.refused.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(duplicate).isNotDone();
		first.complete(response(201, "created"), false);
		assertThat(duplicate.get(30, TimeUnit.SECONDS)).isInstanceOfSatisfying(Decision.Replay.class,
				(replay) -> assertThat(replay.response()).isEqualTo(response(201, "created")));
		assertThat(this.listener.outcomes()).containsExactly(Outcome.EXECUTED, Outcome.REPLAYED);
	}

	@Test
	void duplicateWithAWaitIsRefusedWhenTheWaitRunsOut() {
		OperationPolicy waiting = new OperationPolicy(OPERATION, IdempotencyMode.LEASED, Duration.ofHours(1), LEASE,
				Duration.ofMillis(100), false);
		Execution first = proceed(this.engine.begin(this.key, FINGERPRINT, waiting));
		assertThat(this.engine.begin(this.key, FINGERPRINT, waiting)).isInstanceOf(Decision.InProgress.class);
		assertThat(this.listener.outcomes()).containsExactly(Outcome.CONFLICT);
		first.release();
	}

	@Test
	void leasedClaimCommitsOnItsOwnInsideAnApplicationTransaction() {
		new TransactionTemplate(transactionManager).executeWithoutResult((status) -> {
			proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.LEASED)));
			assertThat(findFromAnotherConnection()).isNotNull();
			status.setRollbackOnly();
		});
		assertThat(findFromAnotherConnection()).isEqualTo(RecordStatus.IN_PROGRESS.name());
	}

	@Test
	void atomicClaimEffectsAndCompletionCommitTogether() {
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.ATOMIC)));
		jdbc.update("INSERT INTO engine_effect (tenant) VALUES (?)", this.key.tenant());
		assertThat(findFromAnotherConnection()).isNull();
		assertThat(execution.complete(response(201, "created"), false)).isEqualTo(Completion.STORED);
		assertThat(findFromAnotherConnection()).isEqualTo(RecordStatus.COMPLETED.name());
		assertThat(effects()).isOne();
	}

	@Test
	void releasedAtomicExecutionLeavesNeitherClaimNorEffects() {
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.ATOMIC)));
		jdbc.update("INSERT INTO engine_effect (tenant) VALUES (?)", this.key.tenant());
		execution.release();
		assertThat(findFromAnotherConnection()).isNull();
		assertThat(effects()).isZero();
		assertThat(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.ATOMIC)))
			.isInstanceOfSatisfying(Decision.Proceed.class, (proceed) -> proceed.execution().release());
	}

	@Test
	void atomicExecutionWhoseEffectsAreDiscardedStoresOnlyItsResponse() {
		Execution execution = proceed(this.engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.ATOMIC)));
		jdbc.update("INSERT INTO engine_effect (tenant) VALUES (?)", this.key.tenant());
		assertThat(execution.complete(response(422, "refused"), true)).isEqualTo(Completion.STORED);
		assertThat(effects()).isZero();
		assertThat(this.store.find(this.key).orElseThrow().response()).isEqualTo(response(422, "refused"));
	}

	@Test
	void atomicModeWithoutATransactionManagerIsRefused() {
		IdempotencyEngine engine = new IdempotencyEngine(this.store, this.listener, new IdempotencyTransactions(null, null),
				this.heartbeat);
		assertThatIllegalStateException()
			.isThrownBy(() -> engine.begin(this.key, FINGERPRINT, policy(IdempotencyMode.ATOMIC)))
			.withMessageContaining("PlatformTransactionManager");
		assertThat(this.store.find(this.key)).isEmpty();
	}

	private static OperationPolicy policy(IdempotencyMode mode) {
		return new OperationPolicy(OPERATION, mode, Duration.ofHours(1), LEASE, Duration.ZERO, false);
	}

	private static Execution proceed(Decision decision) {
		assertThat(decision).isInstanceOf(Decision.Proceed.class);
		return ((Decision.Proceed) decision).execution();
	}

	private static StoredResponse response(int status, String body) {
		return new StoredResponse(status, Map.of("Content-Type", List.of("text/plain")),
				body.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Let another database accept new connections again, or refuse them as a database that is
	 * down does.
	 */
	private static void allowConnections(PostgresTestDatabase database, boolean allow) {
		jdbc.execute("ALTER DATABASE " + database.name() + " WITH ALLOW_CONNECTIONS " + allow);
	}

	private void runOutLease() {
		jdbc.update("UPDATE idempotency_record SET locked_until = clock_timestamp() - INTERVAL '1 second' "
				+ "WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?", this.key.tenant(),
				this.key.operation(), this.key.key());
	}

	/**
	 * Read the status of the record on a connection of its own, outside any transaction of the
	 * calling thread.
	 */
	private String findFromAnotherConnection() {
		try {
			return CompletableFuture.supplyAsync(() -> {
				List<String> statuses = jdbc.queryForList(
						"SELECT status FROM idempotency_record WHERE tenant_id = ? AND operation = ? AND "
								+ "idempotency_key = ?",
						String.class, this.key.tenant(), this.key.operation(), this.key.key());
				return statuses.isEmpty() ? null : statuses.get(0);
			}).get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private int effects() {
		return jdbc.queryForObject("SELECT count(*) FROM engine_effect WHERE tenant = ?", Integer.class,
				this.key.tenant());
	}

	/**
	 * Records what the engine reports.
	 */
	static final class RecordingListener implements IdempotencyListener {

		final Queue<String> events = new ConcurrentLinkedQueue<>();

		private final Queue<Outcome> outcomes = new ConcurrentLinkedQueue<>();

		@Override
		public void onOutcome(String operation, Outcome outcome) {
			this.outcomes.add(outcome);
		}

		@Override
		public void onExecutionStarted(String operation, boolean takenOver) {
			this.events.add("started " + operation + " takenOver=" + takenOver);
		}

		List<Outcome> outcomes() {
			return List.copyOf(this.outcomes);
		}

	}

	/**
	 * The JDBC store, counting down a latch whenever a claim is refused because the key is held.
	 */
	static final class ObservedStore extends ForwardingIdempotencyStore {

		final CountDownLatch refused = new CountDownLatch(1);

		volatile boolean completionsSentTwice;

		ObservedStore(IdempotencyStore delegate) {
			super(delegate);
		}

		@Override
		public ClaimResult claim(ClaimRequest request) {
			ClaimResult result = this.delegate.claim(request);
			if (result instanceof ClaimResult.Existing) {
				this.refused.countDown();
			}
			return result;
		}

		@Override
		public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
			if (this.completionsSentTwice) {
				// As a client that sends a command again when the reply to the first was lost
				// with its connection: the first stores, the one whose answer is seen does not.
				this.delegate.complete(key, token, response, ttl);
			}
			return this.delegate.complete(key, token, response, ttl);
		}

	}

}
