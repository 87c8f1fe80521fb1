package io.github.idempotency.adoption.clinic;

import io.github.idempotency.jdbc.AdoptionJdbc;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.jdbc.core.JdbcTemplate;


/**
 * What the database held once every singleton was created, before the web server started and so
 * before the first request: the users of the application's {@code data.sql} and the starter's
 * tables.
 */
class StartupSnapshot implements SmartInitializingSingleton {

	private final DataSource dataSource;

	private List<String> users = List.of();

	private List<String> starterShortfalls = List.of("not taken");

	private long starterMigrations;

	StartupSnapshot(DataSource dataSource) {
		this.dataSource = dataSource;
	}

	@Override
	public void afterSingletonsInstantiated() {
		JdbcTemplate jdbc = new JdbcTemplate(this.dataSource);
		this.users = jdbc.queryForList("SELECT u.username || ':' || a.authority FROM users u "
				+ "JOIN authorities a ON a.username = u.username ORDER BY u.username", String.class);
		this.starterShortfalls = AdoptionJdbc.columnShortfalls(jdbc, this.dataSource);
		this.starterMigrations = jdbc.queryForObject(
				"SELECT count(*) FROM \"idempotency_schema_history\" WHERE \"success\" = TRUE", Long.class);
	}

	List<String> users() {
		return this.users;
	}

	List<String> starterShortfalls() {
		return this.starterShortfalls;
	}

	long starterMigrations() {
		return this.starterMigrations;
	}

}
