package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.MariaDbTestDatabase;

/**
 * LEASED claims that arrive while another is being written share one statement and one commit on
 * MariaDB, its multi-row upsert answering each claim in order.
 */
class MariaDbClaimBatchTests extends AbstractClaimBatchTests {

	private static HikariDataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.mariadb(MariaDbTestDatabase.create("claimbatch"), 40);
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
				VALUES (?, 'pay', 'held', 'IN_PROGRESS', 'x', UUID(), UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))
				""";
	}

	@Override
	String lockWaitsQuery() {
		return "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'";
	}

}
