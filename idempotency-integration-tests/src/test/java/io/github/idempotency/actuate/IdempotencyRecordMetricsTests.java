package io.github.idempotency.actuate;

import io.github.idempotency.jdbc.JdbcTestSupport;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.RecordCounts;
import io.github.idempotency.store.ReferencedKey;
import io.github.idempotency.store.RepeatedFailure;
import io.github.idempotency.store.RecordMetadata;
import io.github.idempotency.store.ReleaseOutcome;
import io.github.idempotency.jdbc.JdbcIdempotencyStore;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link IdempotencyRecordMetrics} on PostgreSQL: stuck and expired records and whether the store
 * answers, counted off the caller's thread and at most once per refresh interval.
 */
class IdempotencyRecordMetricsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static HikariDataSource dataSource;

	private static JdbcIdempotencyStore store;

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private JdbcTemplate jdbc;

	private IdempotencyRecordMetrics metrics;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("recordgauges"), 4);
		TestDataSources.migrate(dataSource);
		store = TestDataSources.store(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@BeforeEach
	void emptyTheTable() {
		this.jdbc = new JdbcTemplate(dataSource);
		this.jdbc.update("DELETE FROM idempotency_record");
	}

	@AfterEach
	void stopTheGauges() {
		if (this.metrics != null) {
			this.metrics.destroy();
		}
	}

	@Test
	void theGaugesCountStuckAndExpiredRecordsOfEveryOperationAndReportTheStoreUp() {
		stuck("payments");
		stuck("refunds");
		expired("payments");
		claim("payments");
		this.metrics = new IdempotencyRecordMetrics(this.registry, administration(), Duration.ZERO);
		await().atMost(TIMEOUT).untilAsserted(() -> {
			assertThat(gauge(IdempotencyRecordMetrics.STUCK)).isEqualTo(2);
			assertThat(gauge(IdempotencyRecordMetrics.EXPIRED)).isEqualTo(1);
			assertThat(gauge(IdempotencyRecordMetrics.STORE_UP)).isEqualTo(1);
		});
		this.jdbc.update("DELETE FROM idempotency_record WHERE status = 'IN_PROGRESS'");
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(gauge(IdempotencyRecordMetrics.STUCK)).isZero());
	}

	@Test
	void theGaugesAreUnknownUntilTheFirstCountHasFinishedAndTheirReadersNeverWaitForIt() throws Exception {
		stuck("payments");
		CountingAdministration administration = new CountingAdministration(administration());
		try (Connection locker = dataSource.getConnection()) {
			locker.setAutoCommit(false);
			try (Statement statement = locker.createStatement()) {
				statement.execute("LOCK TABLE idempotency_record IN ACCESS EXCLUSIVE MODE");
			}
			this.metrics = new IdempotencyRecordMetrics(this.registry, administration, Duration.ZERO);
			assertThat(gauge(IdempotencyRecordMetrics.STUCK)).isNaN();
			await().atMost(TIMEOUT).untilAsserted(() -> assertThat(administration.counts).hasValue(1));
			for (int i = 0; i < 20; i++) {
				assertThat(gauge(IdempotencyRecordMetrics.STUCK)).isNaN();
				assertThat(gauge(IdempotencyRecordMetrics.EXPIRED)).isNaN();
				assertThat(gauge(IdempotencyRecordMetrics.STORE_UP)).isNaN();
			}
			assertThat(administration.counts).hasValue(1);
			locker.rollback();
		}
		await().atMost(TIMEOUT).untilAsserted(() -> {
			assertThat(gauge(IdempotencyRecordMetrics.STUCK)).isOne();
			assertThat(gauge(IdempotencyRecordMetrics.STORE_UP)).isOne();
		});
	}

	@Test
	void theStoreIsCountedOnceForAsLongAsTheRefreshIntervalHowOftenTheGaugesAreRead() {
		stuck("payments");
		CountingAdministration administration = new CountingAdministration(administration());
		this.metrics = new IdempotencyRecordMetrics(this.registry, administration, Duration.ofHours(1));
		await().atMost(TIMEOUT).untilAsserted(() -> assertThat(gauge(IdempotencyRecordMetrics.STUCK)).isOne());
		stuck("payments");
		for (int i = 0; i < 20; i++) {
			assertThat(gauge(IdempotencyRecordMetrics.STUCK)).isOne();
			assertThat(gauge(IdempotencyRecordMetrics.EXPIRED)).isZero();
		}
		assertThat(administration.counts).hasValue(1);
	}

	@Test
	void theStoreIsReportedDownWhenItCannotBeReached() {
		SimpleDriverDataSource unreachable = new SimpleDriverDataSource(new org.postgresql.Driver(),
				"jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2", "postgres", "");
		this.metrics = new IdempotencyRecordMetrics(this.registry, JdbcTestSupport.postgresAdministration(unreachable),
				Duration.ZERO);
		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(gauge(IdempotencyRecordMetrics.STORE_UP)).isZero());
		assertThat(gauge(IdempotencyRecordMetrics.STUCK)).isNaN();
		assertThat(gauge(IdempotencyRecordMetrics.EXPIRED)).isNaN();
	}

	@Test
	void theGaugesAreRegisteredBeforeTheyAreRead() {
		this.metrics = new IdempotencyRecordMetrics(this.registry, administration(), Duration.ofHours(1));
		assertThat(this.registry.getMeters()).extracting((meter) -> meter.getId().getName())
			.containsExactlyInAnyOrder(IdempotencyRecordMetrics.STUCK, IdempotencyRecordMetrics.EXPIRED,
					IdempotencyRecordMetrics.STORE_UP);
	}

	private double gauge(String name) {
		return this.registry.get(name).gauge().value();
	}

	private static IdempotencyRecordAdministration administration() {
		return JdbcTestSupport.postgresAdministration(dataSource);
	}

	private IdempotencyKey claim(String operation) {
		IdempotencyKey key = new IdempotencyKey("tenant", operation, UUID.randomUUID().toString());
		ClaimResult result = store.claim(new ClaimRequest(key, "f", Duration.ofMinutes(1), Duration.ofHours(1)));
		assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
		return key;
	}

	private void stuck(String operation) {
		IdempotencyKey key = claim(operation);
		assertThat(this.jdbc.update("UPDATE idempotency_record SET locked_until = now() - interval '1 second' "
				+ "WHERE operation = ? AND idempotency_key = ?", operation, key.key())).isOne();
	}

	private void expired(String operation) {
		IdempotencyKey key = new IdempotencyKey("tenant", operation, UUID.randomUUID().toString());
		ClaimResult claimed = store.claim(new ClaimRequest(key, "f", Duration.ofMinutes(1), Duration.ofHours(1)));
		assertThat(store.complete(key, ((ClaimResult.Claimed) claimed).token(),
				new StoredResponse(200, Map.of(), new byte[0]), Duration.ofHours(1)))
			.isTrue();
		assertThat(this.jdbc.update("UPDATE idempotency_record SET expires_at = now() - interval '1 minute' "
				+ "WHERE operation = ? AND idempotency_key = ?", operation, key.key())).isOne();
	}

	/**
	 * The real administration, counting how often the records are counted.
	 */
	private static final class CountingAdministration implements IdempotencyRecordAdministration {

		final AtomicInteger counts = new AtomicInteger();

		private final IdempotencyRecordAdministration delegate;

		CountingAdministration(IdempotencyRecordAdministration delegate) {
			this.delegate = delegate;
		}

		@Override
		public List<RecordCounts> countByOperation() {
			this.counts.incrementAndGet();
			return this.delegate.countByOperation();
		}

		@Override
		public Optional<RecordMetadata> describe(IdempotencyKey key) {
			return this.delegate.describe(key);
		}

		@Override
		public ReleaseOutcome release(IdempotencyKey key, boolean force) {
			return this.delegate.release(key, force);
		}

		@Override
		public long countStuck() {
			return this.delegate.countStuck();
		}

		@Override
		public List<RepeatedFailure> repeatedFailures(@Nullable String operation, int limit) {
			return this.delegate.repeatedFailures(operation, limit);
		}

		@Override
		public List<ReferencedKey> findByReference(String name, String value, int limit) {
			return this.delegate.findByReference(name, value, limit);
		}

	}

}
