package io.github.idempotency.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * LEASED claims, and completions outside transactions, that arrive while another is being written
 * share one statement and one commit on PostgreSQL, each with its own outcome and fencing token.
 */
class PostgresWriteBatchTests extends AbstractClaimBatchTests {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("claimbatch"), 40);
		TestDataSources.migrate(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Override
	DataSource dataSource() {
		return dataSource;
	}

	@Override
	String insertHeldRecord() {
		return """
				INSERT INTO idempotency_record (tenant_id, operation, idempotency_key, status, request_fingerprint,
				  fencing_token, locked_until, created_at, expires_at)
				VALUES (?, 'pay', 'held', 'IN_PROGRESS', 'x', gen_random_uuid(), now(), now(), now())
				""";
	}

	@Override
	String lockWaitsQuery() {
		return "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()";
	}

	@Test
	void completionsThatWaitForACompletionBeingWrittenShareTheNextStatementEachOnItsOwnClaim() throws Exception {
		List<IdempotencyKey> keys = new ArrayList<>();
		List<UUID> tokens = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			ClaimRequest request = request("c" + i, FINGERPRINT);
			keys.add(request.key());
			tokens.add(((ClaimResult.Claimed) this.store.claim(request)).token());
		}
		// The claim of c8 is taken over: its old token must complete nothing.
		tokens.set(8, UUID.randomUUID());
		this.connections.set(0);
		ExecutorService threads = Executors.newFixedThreadPool(keys.size());
		try (Connection lock = dataSource.getConnection()) {
			lock.setAutoCommit(false);
			try (PreparedStatement select = lock.prepareStatement(
					"SELECT 1 FROM idempotency_record WHERE tenant_id = ? AND idempotency_key = 'c0' FOR UPDATE")) {
				select.setString(1, this.tenant);
				select.executeQuery().close();
			}
			List<Future<Boolean>> results = new ArrayList<>();
			results.add(threads.submit(() -> complete(keys.get(0), tokens.get(0))));
			await().atMost(Duration.ofSeconds(30)).until(() -> this.connections.get() == 1 && lockWaits() == 1);
			for (int i = 1; i < keys.size(); i++) {
				int index = i;
				results.add(threads.submit(() -> complete(keys.get(index), tokens.get(index))));
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> this.store.completionsWaiting() == keys.size() - 1);
			lock.rollback();
			for (int i = 0; i < keys.size(); i++) {
				assertThat(results.get(i).get(30, TimeUnit.SECONDS)).as("completion of c" + i).isEqualTo(i != 8);
			}
		}
		finally {
			threads.shutdownNow();
		}
		// The held completion's statement, then one for the 8 that waited.
		assertThat(this.connections).hasValue(2);
		for (int i = 0; i < 8; i++) {
			IdempotencyKey key = keys.get(i);
			assertThat(this.store.find(key)).get().satisfies((record) -> {
				assertThat(record.status()).isEqualTo(RecordStatus.COMPLETED);
				assertThat(record.response().body()).asString().isEqualTo("body of " + key.key());
				assertThat(record.response().headers()).containsEntry("Content-Type", List.of("text/plain"));
			});
		}
		assertThat(this.store.find(keys.get(8))).get()
			.extracting((record) -> record.status())
			.isEqualTo(RecordStatus.IN_PROGRESS);
	}

	private boolean complete(IdempotencyKey key, UUID token) {
		return this.store.completeOutsideTransaction(key, token,
				new StoredResponse(201, Map.of("Content-Type", List.of("text/plain")),
						("body of " + key.key()).getBytes(StandardCharsets.UTF_8)),
				Duration.ofHours(1));
	}

}
