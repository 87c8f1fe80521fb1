package io.github.idempotency.sample.reliability;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.idempotency.sample.SamplePaymentsApplication;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.MariaDbTestDatabase;
import io.github.idempotency.testsupport.PostgresTestDatabase;

/**
 * One instance of the sample application started in this JVM on a random port, as a separate
 * Spring Boot context with its own connection pool, so that several share one database.
 */
final class SampleInstance implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final int port;

	private SampleInstance(ConfigurableApplicationContext context) {
		this.context = context;
		this.port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	/**
	 * Start an instance on a database, with a pool that keeps few idle connections so that several
	 * instances fit within the server's connection limit; the arguments override
	 * {@code application.yml} as command line arguments would, and must not repeat one of these.
	 * @param database the database
	 * @param arguments further arguments such as {@code --sample.gateway.latency=100ms}
	 * @return the running instance
	 */
	static SampleInstance start(PostgresTestDatabase database, String... arguments) {
		return start(database.url(), database.username(), database.password(), List.of(), arguments);
	}

	/**
	 * Start an instance with the {@code mariadb} profile on a MariaDB database, as
	 * {@link #start(PostgresTestDatabase, String...)} does on PostgreSQL.
	 * @param database the database
	 * @param arguments further arguments
	 * @return the running instance
	 */
	static SampleInstance start(MariaDbTestDatabase database, String... arguments) {
		return start(database.url(), database.username(), database.password(),
				List.of("--spring.profiles.active=mariadb"), arguments);
	}

	private static SampleInstance start(String url, String username, String password, List<String> profile,
			String... arguments) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--spring.datasource.url=" + url,
				"--spring.datasource.username=" + username, "--spring.datasource.password=" + password,
				"--spring.datasource.hikari.minimum-idle=2", "--spring.jmx.enabled=false",
				"--spring.main.banner-mode=off"));
		args.addAll(profile);
		args.addAll(List.of(arguments));
		return new SampleInstance(new SpringApplicationBuilder(SamplePaymentsApplication.class)
			.run(args.toArray(String[]::new)));
	}

	int port() {
		return this.port;
	}

	Http http() {
		return new Http(this.port);
	}

	@Override
	public void close() {
		this.context.close();
	}

}
