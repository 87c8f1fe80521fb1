package io.github.idempotency.jdbc;

import io.github.idempotency.jdbc.IdempotencyPurger.PurgeListener;

import io.github.idempotency.jdbc.IdempotencyPurger.PurgeReason;

import io.github.idempotency.jdbc.IdempotencyPurger.PurgeResult;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

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
 * The purge on a real database: expired records deleted once, stuck ones reclaimed, live ones
 * kept, archived operations copied with their response, and batches throttled.
 */
abstract class PurgeContractTests {

	static final Set<String> ARCHIVED = Set.of("payments");

	static final Duration STUCK_AFTER = Duration.ofHours(1);

	TestRecords records;

	protected abstract DataSource dataSource();

	@BeforeEach
	void deleteAllRecords() {
		this.records = new TestRecords(new JdbcTemplate(dataSource()), DatabasePlatform.of(dataSource()));
		this.records.deleteAll();
	}

	@Test
	void twoPurgersRunningAtOnceDeleteEveryExpiredRecordExactlyOnceAndNoLiveOne() throws Exception {
		this.records.completed("payments", "expired-", 3000, Duration.ofHours(-1));
		this.records.completed("orders", "expired-", 3000, Duration.ofHours(-1));
		this.records.completed("orders", "live-", 200, Duration.ofHours(1));
		this.records.inProgress("orders", "running-", 100, Duration.ofMinutes(5), Duration.ofHours(-1));
		this.records.inProgress("orders", "crashed-", 100, Duration.ofMinutes(-1), Duration.ofHours(1));
		CyclicBarrier start = new CyclicBarrier(2);
		CompletableFuture<PurgeResult> first = CompletableFuture.supplyAsync(() -> purgeAfter(start, purger(100)));
		CompletableFuture<PurgeResult> second = CompletableFuture.supplyAsync(() -> purgeAfter(start, purger(100)));
		PurgeResult one = first.get(60, TimeUnit.SECONDS);
		PurgeResult other = second.get(60, TimeUnit.SECONDS);
		assertThat(one.expired()).isPositive();
		assertThat(other.expired()).isPositive();
		assertThat(one.expired() + other.expired()).isEqualTo(6000);
		assertThat(one.archived() + other.archived()).isEqualTo(3000);
		assertThat(one.stuck() + other.stuck()).isZero();
		assertThat(this.records.count("idempotency_key LIKE 'expired-%'")).isZero();
		assertThat(this.records.count("idempotency_key LIKE 'live-%'")).isEqualTo(200);
		assertThat(this.records.count("idempotency_key LIKE 'running-%'")).isEqualTo(100);
		assertThat(this.records.count("idempotency_key LIKE 'crashed-%'")).isEqualTo(100);
		assertThat(this.records.archived("operation = 'payments' AND idempotency_key LIKE 'expired-%'"))
			.isEqualTo(3000);
		assertThat(this.records.archived("operation <> 'payments'")).isZero();
		assertThat(new JdbcTemplate(dataSource()).queryForObject("SELECT count(*) FROM (SELECT DISTINCT tenant_id, "
				+ "operation, idempotency_key FROM idempotency_record_archive) archived_keys", Long.class))
			.isEqualTo(3000);
	}

	@Test
	void archivedRecordsLandInTheArchiveTableWithTheirResponse() {
		JdbcIdempotencyStore store = TestDataSources.store(dataSource());
		for (String operation : List.of("payments", "orders")) {
			for (int i = 0; i < 3; i++) {
				IdempotencyKey key = new IdempotencyKey(TestRecords.TENANT, operation, "key-" + i);
				ClaimResult.Claimed claimed = (ClaimResult.Claimed) store
					.claim(new ClaimRequest(key, "fingerprint-" + i, Duration.ofSeconds(30), Duration.ofHours(1)));
				store.complete(key, claimed.token(), new StoredResponse(201,
						Map.of("Content-Type", List.of("application/json"), "Location", List.of("/payments/" + i)),
						("{\"payment\":" + i + ",\"note\":\"caf\u00e9\"}").getBytes(StandardCharsets.UTF_8)),
						Duration.ofHours(1));
			}
		}
		new JdbcTemplate(dataSource()).update("UPDATE idempotency_record SET expires_at = created_at");
		List<Map<String, Object>> payments = this.records.snapshot("idempotency_record", "operation = 'payments'");
		PurgeResult result = purger(500).purge();
		assertThat(result.expired()).isEqualTo(6);
		assertThat(result.archived()).isEqualTo(3);
		assertThat(this.records.snapshot("idempotency_record_archive", "1 = 1")).isEqualTo(payments);
		assertThat(payments).allSatisfy((row) -> {
			assertThat(row.get("response_status")).isEqualTo(201);
			assertThat((String) row.get("response_body")).startsWith("{\"payment\":").endsWith("\"caf\u00e9\"}");
			assertThat((String) row.get("response_headers")).contains("Location: /payments/");
		});
		assertThat(this.records.archived("archived_at IS NOT NULL")).isEqualTo(3);
		assertThat(this.records.count("1 = 1")).isZero();
	}

	/**
	 * Records released by a transient failure are purged once they expire, like completed ones,
	 * and never archived: they never had an effect.
	 */
	@Test
	void expiredReleasedRecordsArePurgedWithoutBeingArchived() {
		JdbcIdempotencyStore store = TestDataSources.store(dataSource());
		for (String key : List.of("released", "released-live")) {
			for (String operation : List.of("payments", "orders")) {
				IdempotencyKey scoped = new IdempotencyKey(TestRecords.TENANT, operation, key);
				ClaimResult.Claimed claimed = (ClaimResult.Claimed) store
					.claim(new ClaimRequest(scoped, "fingerprint", Duration.ofSeconds(30), Duration.ofHours(1)));
				assertThat(store.release(scoped, claimed.token(), "status 503")).isTrue();
			}
		}
		new JdbcTemplate(dataSource())
			.update("UPDATE idempotency_record SET expires_at = created_at WHERE idempotency_key = 'released'");
		PurgeResult result = purger(500).purge();
		assertThat(result.expired()).isEqualTo(2);
		assertThat(result.archived()).isZero();
		assertThat(this.records.count("idempotency_key = 'released'")).isZero();
		assertThat(this.records.count("idempotency_key = 'released-live' AND status = 'RELEASED'")).isEqualTo(2);
		assertThat(this.records.archived("1 = 1")).isZero();
	}

	/**
	 * References go with their record when the purge deletes it, copied to their archive for
	 * archived operations; those of live records stay.
	 */
	@Test
	void referencesArePurgedWithTheirRecordAndArchivedForArchivedOperations() {
		JdbcIdempotencyStore store = TestDataSources.store(dataSource());
		for (String operation : List.of("payments", "orders")) {
			for (String key : List.of("expired", "live")) {
				IdempotencyKey scoped = new IdempotencyKey(TestRecords.TENANT, operation, key);
				ClaimResult.Claimed claimed = (ClaimResult.Claimed) store
					.claim(new ClaimRequest(scoped, "fingerprint", Duration.ofSeconds(30), Duration.ofHours(1)));
				store.addReference(scoped, "gateway_transaction", operation + "-" + key, Duration.ofHours(1));
				store.addReference(scoped, "refund", operation + "-" + key, Duration.ofHours(1));
				store.complete(scoped, claimed.token(), new StoredResponse(201, Map.of(), new byte[] { 1 }),
						Duration.ofHours(1));
			}
		}
		new JdbcTemplate(dataSource())
			.update("UPDATE idempotency_record SET expires_at = created_at WHERE idempotency_key = 'expired'");
		PurgeResult result = purger(500).purge();
		assertThat(result.expired()).isEqualTo(2);
		assertThat(this.records.references("idempotency_key = 'expired'")).isZero();
		assertThat(this.records.references("idempotency_key = 'live'")).isEqualTo(4);
		assertThat(this.records.archivedReferences("operation = 'payments' AND idempotency_key = 'expired' "
				+ "AND reference_value = 'payments-expired'")).isEqualTo(2);
		assertThat(this.records.archivedReferences("1 = 1")).isEqualTo(2);
	}

	/**
	 * A reference whose record is gone (an ATOMIC rollback left none) is purged once it expires,
	 * archived first for an archived operation.
	 */
	@Test
	void referencesWithoutARecordArePurgedOnceExpired() {
		JdbcIdempotencyStore store = TestDataSources.store(dataSource());
		for (String operation : List.of("payments", "orders")) {
			store.addReference(new IdempotencyKey(TestRecords.TENANT, operation, "rolled-back"), "gateway_transaction",
					operation + "-old", Duration.ofHours(1));
			store.addReference(new IdempotencyKey(TestRecords.TENANT, operation, "rolled-back-recently"),
					"gateway_transaction", operation + "-recent", Duration.ofHours(1));
		}
		new JdbcTemplate(dataSource())
			.update("UPDATE idempotency_reference SET expires_at = created_at WHERE idempotency_key = 'rolled-back'");
		purger(500).purge();
		assertThat(this.records.references("idempotency_key = 'rolled-back'")).isZero();
		assertThat(this.records.references("idempotency_key = 'rolled-back-recently'")).isEqualTo(2);
		assertThat(this.records.archivedReferences("1 = 1")).isOne();
		assertThat(this.records.archivedReferences("reference_value = 'payments-old'")).isOne();
	}

	@Test
	void expiredSequenceScopesArePurgedAndLiveOnesKept() {
		JdbcIdempotencyStore store = TestDataSources.store(dataSource());
		String expired = "expired-" + UUID.randomUUID();
		String live = "live-" + UUID.randomUUID();
		store.advanceSequence(TestRecords.TENANT, expired, 5, Duration.ofHours(1));
		store.advanceSequence(TestRecords.TENANT, live, 5, Duration.ofHours(1));
		JdbcTemplate jdbc = new JdbcTemplate(dataSource());
		jdbc.update("UPDATE idempotency_sequence SET expires_at = updated_at WHERE scope = ?", expired);
		purger(500).purge();
		assertThat(jdbc.queryForList("SELECT scope FROM idempotency_sequence WHERE scope IN (?, ?)", String.class,
				expired, live)).containsExactly(live);
		assertThat(store.advanceSequence(TestRecords.TENANT, expired, 1, Duration.ofHours(1)).accepted()).isTrue();
	}

	@Test
	void recordsStuckInProgressLongPastTheirLeaseAreReclaimedWhileLiveAndRecentlyRunOutOnesStay() {
		this.records.inProgress("payments", "stuck-", 5, Duration.ofHours(-2), Duration.ofHours(22));
		this.records.inProgress("orders", "stuck-", 5, Duration.ofHours(-2), Duration.ofHours(22));
		this.records.inProgress("orders", "recent-", 5, Duration.ofMinutes(-1), Duration.ofHours(23));
		this.records.inProgress("orders", "live-", 5, Duration.ofMinutes(1), Duration.ofHours(-1));
		this.records.completed("orders", "completed-", 5, Duration.ofHours(1));
		PurgeResult result = purger(500).purge();
		assertThat(result.stuck()).isEqualTo(10);
		assertThat(result.expired()).isZero();
		assertThat(result.archived()).isEqualTo(5);
		assertThat(this.records.count("idempotency_key LIKE 'stuck-%'")).isZero();
		assertThat(this.records.count("1 = 1")).isEqualTo(15);
		assertThat(this.records.archived("operation = 'payments' AND status = 'IN_PROGRESS'")).isEqualTo(5);
	}

	@Test
	void throttleBoundsTheBatchRate() {
		this.records.completed("orders", "expired-", 50, Duration.ofHours(-1));
		Duration pause = Duration.ofMillis(150);
		List<long[]> batches = new CopyOnWriteArrayList<>();
		PurgeListener recorder = new PurgeListener() {

			@Override
			public void onBatch(PurgeReason reason, long deleted, long archived) {
				batches.add(new long[] { System.nanoTime(), deleted });
			}

		};
		PurgeResult result = new IdempotencyPurger(batch(10), pause, List.of(recorder))
			.purge();
		assertThat(result.expired()).isEqualTo(50);
		assertThat(batches).extracting((batch) -> batch[1]).containsExactly(10L, 10L, 10L, 10L, 10L, 0L, 0L);
		for (int i = 1; i < batches.size(); i++) {
			assertThat(batches.get(i)[0] - batches.get(i - 1)[0]).isGreaterThanOrEqualTo(pause.toNanos());
		}
		assertThat(result.duration()).isGreaterThanOrEqualTo(pause.multipliedBy(batches.size() - 1));
	}

	@Test
	void aPurgeWithNothingToDoRunsOneBatchPerReasonAndDeletesNothing() {
		this.records.completed("orders", "live-", 5, Duration.ofHours(1));
		PurgeResult result = purger(10).purge();
		assertThat(result.deleted()).isZero();
		assertThat(result.batches()).isEqualTo(2);
		assertThat(this.records.count("1 = 1")).isEqualTo(5);
	}

	IdempotencyPurger purger(int batchSize) {
		return new IdempotencyPurger(batch(batchSize), Duration.ZERO, List.of());
	}

	JdbcPurgeBatch batch(int batchSize) {
		return new JdbcPurgeBatch(dataSource(), IdempotencyStatements.of(dataSource()), ARCHIVED, batchSize,
				STUCK_AFTER);
	}

	private static PurgeResult purgeAfter(CyclicBarrier start, IdempotencyPurger purger) {
		try {
			start.await(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		return purger.purge();
	}

}
