package io.github.idempotency.jdbc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.MariaDbTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Claims inside transactions (ATOMIC mode) on InnoDB at its default REPEATABLE READ: duplicates of
 * a claim that has not committed wait for its row lock (exclusive, so none deadlocks against it
 * upgrading a shared one) and then see what it committed; one key is never claimed twice.
 */
class MariaDbTransactionalClaimTests {

	private static final int DUPLICATES = 16;

	private static HikariDataSource dataSource;

	private static JdbcIdempotencyStore store;

	private static TransactionTemplate transactions;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.mariadb(MariaDbTestDatabase.create("txclaim"), DUPLICATES + 4);
		TestDataSources.migrate(dataSource);
		store = TestDataSources.store(dataSource);
		transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Test
	void duplicatesWaitingForAClaimThatCommitsReplayItWithoutADeadlock() throws Exception {
		IdempotencyKey key = key();
		List<Object> results = duplicatesOfAnUncommittedClaim(key, true);
		assertThat(results).hasSize(DUPLICATES).allSatisfy((result) -> {
			assertThat(result).isInstanceOf(ClaimResult.Existing.class);
			assertThat(((ClaimResult.Existing) result).record().response().body()).isEqualTo(bytes("first"));
		});
		assertThat(store.find(key).orElseThrow().status()).isEqualTo(RecordStatus.COMPLETED);
	}

	/**
	 * When the first rolls back, its record goes and the waiters' locks pass to the gap it leaves,
	 * where InnoDB lets one of them insert and ends the others as deadlock victims: the claim of
	 * each is then reported as locked by a claim in progress (the engine answers it as in
	 * progress), which it is. None of them claims a second time.
	 */
	@Test
	void duplicatesWaitingForAClaimThatRollsBackLetExactlyOneClaimAndTheOthersReplayOrFindItLocked()
			throws Exception {
		IdempotencyKey key = key();
		List<Object> results = duplicatesOfAnUncommittedClaim(key, false);
		List<ClaimResult.Claimed> claimed = results.stream()
			.filter(ClaimResult.Claimed.class::isInstance)
			.map(ClaimResult.Claimed.class::cast)
			.toList();
		assertThat(claimed).hasSize(1);
		assertThat(results).hasSize(DUPLICATES)
			.filteredOn((result) -> !(result instanceof ClaimResult.Claimed))
			.hasSize(DUPLICATES - 1)
			.allSatisfy((result) -> {
				if (result instanceof ClaimResult.Existing existing) {
					assertThat(existing.record().response().body()).isEqualTo(bytes("duplicate"));
				}
				else {
					assertThat(result).isInstanceOf(PessimisticLockingFailureException.class);
				}
			});
		assertThat(store.find(key).orElseThrow().token()).isEqualTo(claimed.get(0).token());
		assertThat(store.find(key).orElseThrow().response().body()).isEqualTo(bytes("duplicate"));
	}

	/**
	 * Claim a key in a transaction, let duplicates claim it in transactions of their own until all
	 * of them wait for its lock, then commit or roll back the first. A duplicate that claims
	 * completes in its transaction.
	 */
	private List<Object> duplicatesOfAnUncommittedClaim(IdempotencyKey key, boolean commit) throws Exception {
		ClaimRequest request = new ClaimRequest(key, "fingerprint", Duration.ofMinutes(1), Duration.ofHours(1))
			.insideTransaction();
		CountDownLatch claimed = new CountDownLatch(1);
		CountDownLatch end = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(DUPLICATES + 1);
		try {
			CompletableFuture<Void> first = CompletableFuture.runAsync(() -> transactions.executeWithoutResult((tx) -> {
				ClaimResult.Claimed result = (ClaimResult.Claimed) store.claim(request);
				assertThat(store.complete(key, result.token(), response("first"), Duration.ofHours(1))).isTrue();
				claimed.countDown();
				awaitLatch(end);
				if (!commit) {
					tx.setRollbackOnly();
				}
			}), threads);
			assertThat(claimed.await(30, TimeUnit.SECONDS)).isTrue();
			List<CompletableFuture<ClaimResult>> duplicates = new ArrayList<>();
			for (int i = 0; i < DUPLICATES; i++) {
				duplicates.add(CompletableFuture.supplyAsync(() -> transactions.execute((tx) -> {
					ClaimResult result = store.claim(request);
					if (result instanceof ClaimResult.Claimed won) {
						assertThat(store.complete(key, won.token(), response("duplicate"), Duration.ofHours(1)))
							.isTrue();
					}
					return result;
				}), threads));
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				assertThat(duplicates).as("duplicates that ended before the first did").noneMatch(CompletableFuture::isDone);
				return transactionsWaitingForALock() == DUPLICATES;
			});
			end.countDown();
			first.get(30, TimeUnit.SECONDS);
			List<Object> results = new ArrayList<>();
			for (CompletableFuture<ClaimResult> duplicate : duplicates) {
				try {
					results.add(duplicate.get(60, TimeUnit.SECONDS));
				}
				catch (ExecutionException ex) {
					results.add(ex.getCause());
				}
			}
			return results;
		}
		finally {
			end.countDown();
			threads.shutdownNow();
		}
	}

	private static long transactionsWaitingForALock() {
		return new JdbcTemplate(dataSource).queryForObject("SELECT count(*) FROM information_schema.innodb_trx t "
				+ "JOIN information_schema.processlist p ON p.id = t.trx_mysql_thread_id "
				+ "WHERE t.trx_state = 'LOCK WAIT' AND p.db = DATABASE()", Long.class);
	}

	private static IdempotencyKey key() {
		return new IdempotencyKey("tenant", "pay", UUID.randomUUID().toString());
	}

	private static StoredResponse response(String body) {
		return new StoredResponse(201, Map.of(), bytes(body));
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			latch.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
