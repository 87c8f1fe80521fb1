package io.github.idempotency.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The claim on PostgreSQL is one statement text whatever its values, so that the driver prepares
 * it on the server once per connection and every later claim skips parsing and planning.
 */
class PostgresPreparedClaimTests {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("preparedclaim"), 2);
		TestDataSources.migrate(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Test
	void repeatedClaimsOnAConnectionRunOneServerSidePreparedStatement() throws SQLException {
		try (Connection connection = dataSource.getConnection()) {
			JdbcClient client = JdbcClient.create(new SingleConnectionDataSource(connection, true));
			JdbcIdempotencyStore store = new JdbcIdempotencyStore(client, new PostgresIdempotencyStatements());
			for (int i = 0; i < 10; i++) {
				ClaimRequest request = new ClaimRequest(new IdempotencyKey("t", "pay", "key-" + i), "fp",
						Duration.ofSeconds(30), Duration.ofHours(1));
				assertThat(store.claim(request)).isInstanceOf(ClaimResult.Claimed.class);
				assertThat(store.claim(request)).isInstanceOf(ClaimResult.Existing.class);
			}
			assertThat(client.sql("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE :claim")
				.param("claim", "WITH existing AS%")
				.query(Long.class)
				.single()).isOne();
		}
	}

}
