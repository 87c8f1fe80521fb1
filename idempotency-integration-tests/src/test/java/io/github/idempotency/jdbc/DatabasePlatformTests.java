package io.github.idempotency.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import io.github.idempotency.test.TestDataSources;
import io.github.idempotency.testsupport.MariaDbTestDatabase;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link DatabasePlatform}.
 */
class DatabasePlatformTests {

	@Test
	void recognizesPostgresFromItsDataSource() {
		try (HikariDataSource dataSource = TestDataSources.postgres(PostgresTestDatabase.create("platform"), 1)) {
			assertThat(DatabasePlatform.of(dataSource)).isEqualTo(DatabasePlatform.POSTGRESQL);
		}
	}

	@Test
	void recognizesH2FromItsDataSource() {
		assertThat(DatabasePlatform.of(TestDataSources.h2())).isEqualTo(DatabasePlatform.H2);
	}

	@Test
	void recognizesMariadbFromItsDataSource() {
		try (HikariDataSource dataSource = TestDataSources.mariadb(MariaDbTestDatabase.create("platform"), 1)) {
			assertThat(DatabasePlatform.of(dataSource)).isEqualTo(DatabasePlatform.MARIADB);
		}
	}

	@Test
	void recognizesMariadbByItsOwnDriversName() {
		assertThat(DatabasePlatform.of(new DatabasePlatform.Product("MariaDB", "10.11.19-MariaDB-0+deb12u1", 10, 11)))
			.isEqualTo(DatabasePlatform.MARIADB);
		assertThat(DatabasePlatform.of(new DatabasePlatform.Product("MariaDB", "11.4.5-MariaDB", 11, 4)))
			.isEqualTo(DatabasePlatform.MARIADB);
	}

	/**
	 * MySQL's driver names a MariaDB server MySQL, and refuses the store's INSERT ... RETURNING
	 * (found by a real application that reached MariaDB through it): the start says which driver
	 * to use.
	 */
	@Test
	void refusesMariadbThroughMysqlsDriverNamingMariadbsDriver() {
		MariaDbTestDatabase database = MariaDbTestDatabase.create("platform_mysql");
		DriverManagerDataSource throughMysqlDriver = new DriverManagerDataSource(
				database.url().replace("jdbc:mariadb:", "jdbc:mysql:"), database.username(), database.password());
		throughMysqlDriver.setDriverClassName("com.mysql.cj.jdbc.Driver");
		assertThatExceptionOfType(UnsupportedDatabaseException.class)
			.isThrownBy(() -> DatabasePlatform.of(throughMysqlDriver))
			.satisfies((ex) -> assertThat(ex.mysqlDriverOnMariadb()).isTrue())
			.satisfies((ex) -> assertThat(new UnsupportedDatabaseFailureAnalyzer().analyze(ex).getAction())
				.contains("org.mariadb.jdbc:mariadb-java-client", "jdbc:mariadb://"));
	}

	@Test
	void refusesMariadbBeforeTenSixAndMysql() {
		assertThatExceptionOfType(UnsupportedDatabaseException.class)
			.isThrownBy(() -> DatabasePlatform.of(new DatabasePlatform.Product("MariaDB", "10.5.27-MariaDB", 10, 5)))
			.withMessageContaining("MariaDB 10.6 or later")
			.withMessageContaining("10.5.27");
		assertThatExceptionOfType(UnsupportedDatabaseException.class)
			.isThrownBy(() -> DatabasePlatform.of(new DatabasePlatform.Product("MySQL", "8.4.5", 8, 4)))
			.withMessageContaining("'MySQL'");
	}

	@Test
	void recognizesProductNamesWhateverTheirCase() {
		assertThat(DatabasePlatform.fromProductName("PostgreSQL")).isEqualTo(DatabasePlatform.POSTGRESQL);
		assertThat(DatabasePlatform.fromProductName("postgres")).isEqualTo(DatabasePlatform.POSTGRESQL);
		assertThat(DatabasePlatform.fromProductName("H2")).isEqualTo(DatabasePlatform.H2);
	}

	@Test
	void refusesOtherDatabasesPointingToACustomStore() {
		assertThatExceptionOfType(UnsupportedDatabaseException.class)
			.isThrownBy(() -> DatabasePlatform.fromProductName("MySQL"))
			.withMessageContaining("'MySQL'")
			.withMessageContaining("IdempotencyStore bean")
			.satisfies((ex) -> assertThat(ex.product()).isEqualTo("MySQL"));
		assertThatIllegalStateException().isThrownBy(() -> DatabasePlatform.fromProductName(null));
	}

	@Test
	void unreachableDatabaseIsReportedClearly() {
		DriverManagerDataSource unreachable = new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/none",
				"nobody", "");
		assertThatIllegalStateException().isThrownBy(() -> DatabasePlatform.of(unreachable))
			.withMessageContaining("Cannot determine the database");
	}

}
