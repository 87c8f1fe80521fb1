package io.github.idempotency.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
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
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCreator;
import org.springframework.jdbc.core.PreparedStatementSetter;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.core.SqlProvider;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Archiving take-over on PostgreSQL, one statement that locks, archives and takes over, also when
 * many claims race for the same expired record.
 */
class PostgresArchiveOnTakeOverTests extends ArchiveOnTakeOverContractTests {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("archivetakeover"), 10);
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
	void concurrentClaimsOfOneExpiredRecordTakeItOverOnceAndArchiveItOnce() throws Exception {
		int claimers = 8;
		ExecutorService threads = Executors.newFixedThreadPool(claimers);
		try {
			for (int round = 0; round < 20; round++) {
				IdempotencyKey key = key("payments");
				completed(key, true);
				expire(key);
				CyclicBarrier start = new CyclicBarrier(claimers);
				List<CompletableFuture<ClaimResult>> results = new ArrayList<>();
				for (int i = 0; i < claimers; i++) {
					results.add(CompletableFuture.supplyAsync(() -> {
						awaitAll(start);
						return this.store.claim(new ClaimRequest(key, "retry", Duration.ofSeconds(30), TTL, true));
					}, threads));
				}
				long claimed = 0;
				for (CompletableFuture<ClaimResult> result : results) {
					claimed += (result.get(30, TimeUnit.SECONDS) instanceof ClaimResult.Claimed) ? 1 : 0;
				}
				assertThat(claimed).isEqualTo(1);
				assertThat(this.records.archived("idempotency_key = ?", key.key())).isEqualTo(1);
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void aClaimThatLosesTheRaceForAnExpiredRecordWaitsThenNeitherTakesItOverNorArchivesIt() throws Exception {
		IdempotencyKey key = key("payments");
		completed(key, true);
		expire(key);
		CountDownLatch atTakeOver = new CountDownLatch(1);
		CountDownLatch go = new CountDownLatch(1);
		JdbcIdempotencyStore pausing = new JdbcIdempotencyStore(
				JdbcClient.create(new PausingBeforeArchivingTakeOver(dataSource, atTakeOver, go)),
				IdempotencyStatements.of(DatabasePlatform.POSTGRESQL));
		CompletableFuture<ClaimResult> late = CompletableFuture
			.supplyAsync(() -> pausing.claim(new ClaimRequest(key, "late", Duration.ofSeconds(30), TTL, true)));
		assertThat(atTakeOver.await(30, TimeUnit.SECONDS)).isTrue();
		try (Connection winner = dataSource.getConnection()) {
			winner.setAutoCommit(false);
			try (PreparedStatement takeOver = winner.prepareStatement("UPDATE idempotency_record SET status = "
					+ "'IN_PROGRESS', fencing_token = ?, expires_at = now() + interval '1 hour', locked_until = now() "
					+ "+ interval '1 minute' WHERE idempotency_key = ?")) {
				takeOver.setObject(1, UUID.randomUUID());
				takeOver.setString(2, key.key());
				assertThat(takeOver.executeUpdate()).isEqualTo(1);
			}
			go.countDown();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> this.jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE datname = "
						+ "current_database() AND wait_event_type = 'Lock'", Long.class) > 0);
			winner.commit();
		}
		assertThat(late.get(30, TimeUnit.SECONDS)).isInstanceOf(ClaimResult.Existing.class);
		assertThat(this.records.archived("idempotency_key = ?", key.key())).isZero();
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
	 * Holds a claim between reading the expired record and taking it over, so that a test can let
	 * another claim win in between; the archiving take-over is the statement that starts by
	 * locking the {@code old} record.
	 */
	static class PausingBeforeArchivingTakeOver extends JdbcTemplate {

		private final CountDownLatch atTakeOver;

		private final CountDownLatch go;

		PausingBeforeArchivingTakeOver(DataSource dataSource, CountDownLatch atTakeOver, CountDownLatch go) {
			super(dataSource);
			this.atTakeOver = atTakeOver;
			this.go = go;
		}

		@Override
		public <T> T query(PreparedStatementCreator psc, @Nullable PreparedStatementSetter pss,
				ResultSetExtractor<T> rse) {
			if (psc instanceof SqlProvider statement && statement.getSql().startsWith("WITH old AS")) {
				this.atTakeOver.countDown();
				try {
					this.go.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return super.query(psc, pss, rse);
		}

	}

}
