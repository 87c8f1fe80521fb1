package io.github.idempotency.sample.support;

import org.springframework.test.context.DynamicPropertyRegistry;

import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * Points an application under test at a throw-away PostgreSQL database.
 */
public final class PostgresDatasource {

	private static final int POOL_SIZE = 5;

	private static final long IDLE_TIMEOUT_MILLIS = 10_000;

	private PostgresDatasource() {
	}

	/**
	 * Register the data source properties of a database, with a small pool that closes its idle
	 * connections, so that the cached contexts of many test classes fit within the server's
	 * connection limit.
	 * @param registry the registry
	 * @param database the database
	 */
	public static void register(DynamicPropertyRegistry registry, PostgresTestDatabase database) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
		registry.add("spring.datasource.hikari.maximum-pool-size", () -> POOL_SIZE);
		registry.add("spring.datasource.hikari.minimum-idle", () -> 0);
		registry.add("spring.datasource.hikari.idle-timeout", () -> IDLE_TIMEOUT_MILLIS);
	}

}
