package io.github.idempotency.jdbc;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;

import io.github.idempotency.test.TestDataSources;

/**
 * Archiving take-over on H2: the take-over, then the archive of what it replaced.
 */
class H2ArchiveOnTakeOverTests extends ArchiveOnTakeOverContractTests {

	private static DataSource dataSource;

	@BeforeAll
	static void createDatabase() {
		dataSource = TestDataSources.h2();
		TestDataSources.migrate(dataSource);
	}

	@Override
	protected DataSource dataSource() {
		return dataSource;
	}

}
