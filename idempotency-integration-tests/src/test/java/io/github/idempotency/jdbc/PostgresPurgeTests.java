package io.github.idempotency.jdbc;

import io.github.idempotency.jdbc.IdempotencyPurger.PurgeResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The purge on PostgreSQL, one statement per batch with {@code FOR UPDATE SKIP LOCKED}, also while
 * claims take over the very records it is deleting.
 */
class PostgresPurgeTests extends PurgeContractTests {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("purge"), 8);
		TestDataSources.migrate(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Override
	protected DataSource dataSource() {
		return dataSource;
	}

	@Test
	void claimsThatTakeOverExpiredRecordsWhileThePurgeRunsAreNeverDeleted() throws Exception {
		int keys = 2000;
		this.records.completed("orders", "key-", keys, Duration.ofHours(-1));
		JdbcIdempotencyStore store = TestDataSources.store(dataSource);
		ConcurrentHashMap<String, UUID> claims = new ConcurrentHashMap<>();
		CyclicBarrier start = new CyclicBarrier(5);
		ExecutorService claimers = Executors.newFixedThreadPool(4);
		try {
			List<CompletableFuture<Void>> running = new ArrayList<>();
			for (int thread = 0; thread < 4; thread++) {
				int first = thread;
				running.add(CompletableFuture.runAsync(() -> {
					awaitAll(start);
					for (int i = first; i < keys; i += 4) {
						IdempotencyKey key = new IdempotencyKey(TestRecords.TENANT, "orders", "key-" + i);
						ClaimResult result = store.claim(new ClaimRequest(key, "retry-" + i, Duration.ofMinutes(5),
								Duration.ofHours(1)));
						claims.put(key.key(), ((ClaimResult.Claimed) result).token());
					}
				}, claimers));
			}
			IdempotencyPurger purger = purger(25);
			awaitAll(start);
			PurgeResult purged = purger.purge();
			CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			assertThat(claims).hasSize(keys);
			assertThat(purged.expired()).isPositive();
			assertThat(this.records.count("status = 'IN_PROGRESS'")).isEqualTo(keys);
			claims.forEach((key, token) -> assertThat(this.records.count(
					"idempotency_key = ? AND fencing_token = ? AND status = 'IN_PROGRESS'", key, token))
				.as(key)
				.isEqualTo(1));
		}
		finally {
			claimers.shutdownNow();
		}
	}

	private static void awaitAll(CyclicBarrier barrier) {
		try {
			barrier.await(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
