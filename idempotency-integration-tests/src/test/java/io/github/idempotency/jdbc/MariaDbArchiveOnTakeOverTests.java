package io.github.idempotency.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
import io.github.idempotency.testsupport.MariaDbTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Archiving take-over on MariaDB, the compare-and-set on the fencing token followed by the archive
 * of what it replaced, also when many claims race for the same expired record.
 */
class MariaDbArchiveOnTakeOverTests extends ArchiveOnTakeOverContractTests {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.mariadb(MariaDbTestDatabase.create("archivetakeover"), 10);
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

	private static void awaitAll(CyclicBarrier barrier) {
		try {
			barrier.await(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
