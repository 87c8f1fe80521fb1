package io.github.idempotency.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the claim costs PostgreSQL, read from the statistics of a database only this test uses: a
 * replay is one index read and no write (SPEC 9).
 */
class PostgresReplayCostTests {

	private static final int REPLAYS = 50;

	private static HikariDataSource dataSource;

	private static JdbcTemplate jdbc;

	private static JdbcIdempotencyStore store;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("replaycost"), 2);
		TestDataSources.migrate(dataSource);
		jdbc = new JdbcTemplate(dataSource);
		store = new JdbcIdempotencyStore(JdbcClient.create(jdbc), new PostgresIdempotencyStatements());
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Test
	void replayCostsOneIndexReadAndNoWrite() {
		ClaimRequest request = new ClaimRequest(new IdempotencyKey("t", "pay", UUID.randomUUID().toString()), "fp",
				Duration.ofSeconds(30), Duration.ofHours(1));
		ClaimResult.Claimed claimed = (ClaimResult.Claimed) store.claim(request);
		store.complete(request.key(), claimed.token(), new StoredResponse(201, Map.of(), new byte[] { 1 }),
				Duration.ofHours(1));
		TableActivity before = awaitSettled();
		for (int i = 0; i < REPLAYS; i++) {
			assertThat(store.claim(request)).isInstanceOf(ClaimResult.Existing.class);
		}
		TableActivity after = await().atMost(Duration.ofSeconds(10))
			.until(PostgresReplayCostTests::activity, (now) -> now.indexScans() >= before.indexScans() + REPLAYS);
		assertThat(after.indexScans() - before.indexScans()).isEqualTo(REPLAYS);
		assertThat(after.sequentialScans()).isEqualTo(before.sequentialScans());
		assertThat(after.writes()).isEqualTo(before.writes());
	}

	@Test
	void firstExecutionIsOneStatementThatInsertsOnce() {
		TableActivity before = awaitSettled();
		ClaimRequest request = new ClaimRequest(new IdempotencyKey("t", "pay", UUID.randomUUID().toString()), "fp",
				Duration.ofSeconds(30), Duration.ofHours(1));
		assertThat(store.claim(request)).isInstanceOf(ClaimResult.Claimed.class);
		TableActivity after = await().atMost(Duration.ofSeconds(10))
			.until(PostgresReplayCostTests::activity, (now) -> now.writes() > before.writes());
		assertThat(after.writes() - before.writes()).isEqualTo(1);
		assertThat(after.sequentialScans()).isEqualTo(before.sequentialScans());
	}

	/**
	 * PostgreSQL publishes a backend's statistics shortly after its transactions end; wait until
	 * two readings agree.
	 */
	private static TableActivity awaitSettled() {
		TableActivity[] last = { activity() };
		return await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ofMillis(1200)).until(() -> {
			TableActivity now = activity();
			boolean settled = now.equals(last[0]);
			last[0] = now;
			return settled ? now : null;
		}, (settled) -> settled != null);
	}

	private static TableActivity activity() {
		return jdbc.execute((Connection connection) -> {
			try (Statement statement = connection.createStatement()) {
				statement.execute("SELECT pg_stat_clear_snapshot()");
				try (ResultSet rs = statement.executeQuery("SELECT coalesce(idx_scan, 0), coalesce(seq_scan, 0), "
						+ "n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_user_tables WHERE relname = 'idempotency_record'")) {
					rs.next();
					return new TableActivity(rs.getLong(1), rs.getLong(2), rs.getLong(3));
				}
			}
		});
	}

	private record TableActivity(long indexScans, long sequentialScans, long writes) {
	}

}
