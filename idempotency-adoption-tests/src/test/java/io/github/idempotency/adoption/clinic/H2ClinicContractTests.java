package io.github.idempotency.adoption.clinic;

import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * The clinic on its default database, embedded H2.
 */
class H2ClinicContractTests extends ClinicContractTests {

	@Override
	DataSource emptyDatabase() {
		return new SimpleDriverDataSource(new org.h2.Driver(),
				"jdbc:h2:mem:reference_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1", "sa",
				"");
	}

}
