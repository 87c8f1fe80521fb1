package io.github.idempotency.jdbc;

import io.github.idempotency.jdbc.IdempotencyPurger.PurgeResult;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.MariaDbTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The purge on MariaDB, a batch of keys locked with {@code FOR UPDATE SKIP LOCKED} and then
 * archived and deleted by key in one transaction, also while claims take over the very records it
 * is deleting, and without holding up claims of other keys while a batch holds its locks.
 */
class MariaDbPurgeTests extends PurgeContractTests {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.mariadb(MariaDbTestDatabase.create("purge"), 8);
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
			CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
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

	/**
	 * InnoDB's default REPEATABLE READ would lock the gaps around the records a batch reads, until
	 * the batch commits: a claim whose new record falls into one (here, between the expired records
	 * and the live ones, or anywhere in a batch that scans the whole table) would wait for the
	 * purge. A locking range scan would also lock the first record past the expired ones (the
	 * records in progress here, whose completion would wait). The batch locks by key just the
	 * records it deletes.
	 */
	@Test
	void claimsReplaysAndCompletionsOfOtherKeysGoThroughWhileABatchHoldsItsLocks() throws Exception {
		this.records.completed("orders", "expired-", 50, Duration.ofHours(-1));
		this.records.completed("orders", "live-", 50, Duration.ofDays(7));
		JdbcIdempotencyStore store = TestDataSources.store(dataSource);
		List<IdempotencyKey> running = new ArrayList<>();
		List<UUID> tokens = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			IdempotencyKey key = new IdempotencyKey(TestRecords.TENANT, "orders", "running-" + i);
			running.add(key);
			tokens.add(((ClaimResult.Claimed) store.claim(
					new ClaimRequest(key, "fingerprint", Duration.ofMinutes(5), Duration.ofHours(1)))).token());
		}
		CountDownLatch atCommit = new CountDownLatch(1);
		CountDownLatch commit = new CountDownLatch(1);
		JdbcPurgeBatch batch = new JdbcPurgeBatch(new CommitHolding(dataSource, atCommit, commit),
				IdempotencyStatements.of(dataSource), ARCHIVED, 1000, STUCK_AFTER);
		CompletableFuture<List<PurgedRecords>> purge = CompletableFuture.supplyAsync(batch::purgeExpired);
		try {
			assertThat(atCommit.await(30, TimeUnit.SECONDS)).as("the batch reached its commit").isTrue();
			CompletableFuture<Void> others = CompletableFuture.runAsync(() -> {
				for (int i = 0; i < 50; i++) {
					Duration ttl = (i % 2 == 0) ? Duration.ofHours(1) : Duration.ofDays(30);
					ClaimResult result = store.claim(new ClaimRequest(
							new IdempotencyKey(TestRecords.TENANT, "orders", "new-" + i), "fingerprint",
							Duration.ofMinutes(5), ttl));
					assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
					ClaimResult replay = store.claim(new ClaimRequest(
							new IdempotencyKey(TestRecords.TENANT, "orders", "live-" + i), "fingerprint-live-" + i,
							Duration.ofMinutes(5), Duration.ofHours(1)));
					assertThat(replay).isInstanceOf(ClaimResult.Existing.class);
				}
				for (int i = 0; i < running.size(); i++) {
					assertThat(store.complete(running.get(i), tokens.get(i),
							new StoredResponse(201, Map.of(), new byte[] { 1 }), Duration.ofHours(1)))
						.isTrue();
				}
			});
			others.get(30, TimeUnit.SECONDS);
			assertThat(purge).as("the batch still holds its locks").isNotDone();
		}
		finally {
			commit.countDown();
		}
		assertThat(purge.get(30, TimeUnit.SECONDS)).singleElement()
			.satisfies((purged) -> assertThat(purged.deleted()).isEqualTo(50));
		assertThat(this.records.count("idempotency_key LIKE 'expired-%'")).isZero();
		assertThat(this.records.count("idempotency_key LIKE 'new-%' AND status = 'IN_PROGRESS'")).isEqualTo(50);
		assertThat(this.records.count("idempotency_key LIKE 'running-%' AND status = 'COMPLETED'")).isEqualTo(10);
	}

	private static void awaitAll(CyclicBarrier barrier) {
		try {
			barrier.await(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Holds every commit of its connections until told to go on, so that a test can act while a
	 * transaction has done its work and still holds its locks.
	 */
	static class CommitHolding extends DelegatingDataSource {

		private final CountDownLatch atCommit;

		private final CountDownLatch commit;

		CommitHolding(DataSource dataSource, CountDownLatch atCommit, CountDownLatch commit) {
			super(dataSource);
			this.atCommit = atCommit;
			this.commit = commit;
		}

		@Override
		public Connection getConnection() throws java.sql.SQLException {
			Connection connection = super.getConnection();
			return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Connection.class },
					(proxy, method, args) -> {
						if (method.getName().equals("commit")) {
							this.atCommit.countDown();
							this.commit.await(60, TimeUnit.SECONDS);
						}
						try {
							return method.invoke(connection, args);
						}
						catch (InvocationTargetException ex) {
							throw ex.getTargetException();
						}
					});
		}

	}

}
