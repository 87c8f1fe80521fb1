package io.github.idempotency.docs.snippets.webflux;

import javax.sql.DataSource;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.context.annotation.Bean;

import io.github.idempotency.jdbc.IdempotencyDataSource;

/**
 * The records' {@code DataSource} of an application on R2DBC. Not a configuration here: it
 * compiles, in an application that has a {@code DataSource} of its own.
 */
class RecordsDataSourceConfiguration {

	// tag::records-data-source[]
	@Bean(defaultCandidate = false)
	@IdempotencyDataSource
	DataSource idempotencyDataSource(@Value("${records.jdbc-url}") String url,
			@Value("${spring.r2dbc.username}") String username, @Value("${spring.r2dbc.password}") String password) {
		return DataSourceBuilder.create().url(url).username(username).password(password).build();
	}
	// end::records-data-source[]

}
