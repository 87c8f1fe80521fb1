package io.github.idempotency.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.test.PrivatePostgresCluster;
import io.github.idempotency.test.TestDataSources;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A LEASED claim is durable once acknowledged: the operation it guards may act outside the
 * database (a payment gateway, a broker) before anything else of it commits, so a PostgreSQL crash
 * right after the claim must not lose it.
 */
class PostgresClaimDurabilityTests {

	private static PrivatePostgresCluster cluster;

	private static SimpleDriverDataSource dataSource;

	@BeforeAll
	static void startCluster() {
		// The WAL writer flushes rarely, so that only a synchronous commit makes a claim durable
		// before the crash.
		cluster = PrivatePostgresCluster.start("wal_writer_delay = 10s", "wal_writer_flush_after = 0");
		dataSource = new SimpleDriverDataSource(new org.postgresql.Driver(), cluster.url(), "postgres", "");
		TestDataSources.migrate(dataSource);
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
	}

	@Test
	void claimsAcknowledgedBeforeAPostgresCrashAreStillHeldAfterIt() {
		JdbcIdempotencyStore store = TestDataSources.store(dataSource);
		List<IdempotencyKey> claimed = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			IdempotencyKey key = new IdempotencyKey("t", "charge", UUID.randomUUID().toString());
			assertThat(store.claim(new ClaimRequest(key, "fp", Duration.ofMinutes(5), Duration.ofHours(1))))
				.isInstanceOf(ClaimResult.Claimed.class);
			claimed.add(key);
		}

		cluster.crashAndRestart();

		JdbcIdempotencyStore recovered = TestDataSources.store(dataSource);
		assertThat(claimed).allSatisfy((key) -> assertThat(recovered.find(key))
			.hasValueSatisfying((record) -> assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS)));
	}

	@Test
	void claimsWrittenTogetherAndAcknowledgedBeforeAPostgresCrashAreStillHeldAfterIt() throws Exception {
		JdbcIdempotencyStore store = new JdbcIdempotencyStore(StatementCachingJdbcTemplate.client(dataSource),
				IdempotencyStatements.of(dataSource), 32);
		List<IdempotencyKey> claimed = Collections.synchronizedList(new ArrayList<>());
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int thread = 0; thread < 8; thread++) {
				done.add(threads.submit(() -> {
					for (int i = 0; i < 25; i++) {
						IdempotencyKey key = new IdempotencyKey("t", "charge", UUID.randomUUID().toString());
						assertThat(store.claim(new ClaimRequest(key, "fp", Duration.ofMinutes(5), Duration.ofHours(1))))
							.isInstanceOf(ClaimResult.Claimed.class);
						claimed.add(key);
					}
				}));
			}
			for (Future<?> thread : done) {
				thread.get();
			}
		}
		finally {
			threads.shutdownNow();
		}

		cluster.crashAndRestart();

		JdbcIdempotencyStore recovered = TestDataSources.store(dataSource);
		assertThat(claimed).hasSize(200).allSatisfy((key) -> assertThat(recovered.find(key))
			.hasValueSatisfying((record) -> assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS)));
	}

}
