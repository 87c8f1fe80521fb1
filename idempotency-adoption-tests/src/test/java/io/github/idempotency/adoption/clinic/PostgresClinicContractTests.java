package io.github.idempotency.adoption.clinic;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * The clinic on PostgreSQL, through its {@code postgresql} profile, in a throw-away database.
 */
@ActiveProfiles("postgresql")
class PostgresClinicContractTests extends ClinicContractTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("adoption");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
	}

	@Override
	DataSource emptyDatabase() {
		PostgresTestDatabase reference = PostgresTestDatabase.create("adoptionref");
		return new SimpleDriverDataSource(new org.postgresql.Driver(), reference.url(), reference.username(),
				reference.password());
	}

}
