package io.github.idempotency.springways;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * A second instance of {@link SpringWaysApplication} on the same database, as a second pod would
 * run it: its own engine, pool and heartbeat.
 */
final class SecondInstance implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private SecondInstance(ConfigurableApplicationContext context) {
		this.context = context;
	}

	static SecondInstance start(PostgresTestDatabase database, String... properties) {
		SpringApplicationBuilder builder = new SpringApplicationBuilder(SpringWaysApplication.class).properties(
				"server.port=0", "spring.datasource.url=" + database.url(),
				"spring.datasource.username=" + database.username(),
				"spring.datasource.password=" + database.password(), "spring.flyway.locations=classpath:db/webtest",
				"idempotency.operations.slow.lease=1500ms", "idempotency.operations.waiting.wait=20s")
			.properties(properties);
		return new SecondInstance(builder.run());
	}

	int port() {
		return ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	<T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	@Override
	public void close() {
		this.context.close();
	}

}
