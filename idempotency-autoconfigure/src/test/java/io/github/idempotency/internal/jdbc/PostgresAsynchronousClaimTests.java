package io.github.idempotency.internal.jdbc;

import java.time.Duration;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A claim in a transaction of its own commits without waiting for the disk, as the operation's
 * first synchronous commit after it makes it durable; a claim inside the operation's transaction
 * (ATOMIC) leaves that transaction's commit synchronous.
 */
class PostgresAsynchronousClaimTests {

	private static HikariDataSource dataSource;

	private static JdbcClient jdbc;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.postgres(PostgresTestDatabase.create("asyncclaim"), 2);
		TestDataSources.migrate(dataSource);
		jdbc = JdbcClient.create(dataSource);
	}

	@AfterAll
	static void closeDataSource() {
		dataSource.close();
	}

	@Test
	void claimOnItsOwnAsksItsTransactionNotToWaitForTheDisk() {
		String setting = new TransactionTemplate(new DataSourceTransactionManager(dataSource)).execute((status) -> {
			// The claim statement as the store sends it outside any transaction, here in one so
			// that the setting it leaves for the rest of its transaction can be read.
			jdbc.sql(new PostgresIdempotencyStatements().claim())
				.param("tenant", "t")
				.param("operation", "pay")
				.param("key", UUID.randomUUID().toString())
				.param("fingerprint", "fp")
				.param("token", UUID.randomUUID())
				.param("leaseMillis", 30_000L)
				.param("ttlMillis", 3_600_000L)
				.param("asyncCommit", true)
				.query((rs, n) -> rs.getBoolean("claimed"))
				.list();
			return jdbc.sql("SELECT current_setting('synchronous_commit')").query(String.class).single();
		});
		assertThat(setting).isEqualTo("off");
		assertThat(jdbc.sql("SELECT current_setting('synchronous_commit')").query(String.class).single())
			.as("the setting is local to the claim's transaction").isEqualTo("on");
	}

	@Test
	void claimInsideTheOperationsTransactionLeavesItsCommitSynchronous() {
		JdbcIdempotencyStore store = new JdbcIdempotencyStore(jdbc, new PostgresIdempotencyStatements());
		String setting = new TransactionTemplate(new DataSourceTransactionManager(dataSource)).execute((status) -> {
			ClaimRequest request = new ClaimRequest(new IdempotencyKey("t", "pay", UUID.randomUUID().toString()),
					"fp", Duration.ofSeconds(30), Duration.ofHours(1));
			assertThat(store.claim(request)).isInstanceOf(ClaimResult.Claimed.class);
			return jdbc.sql("SELECT current_setting('synchronous_commit')").query(String.class).single();
		});
		assertThat(setting).isEqualTo("on");
	}

}
