package io.github.idempotency.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import io.github.idempotency.test.TestDataSources;
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
