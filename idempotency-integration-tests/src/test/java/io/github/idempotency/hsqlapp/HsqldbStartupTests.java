package io.github.idempotency.hsqlapp;

import java.net.http.HttpResponse;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.hsqlapp.HsqlApplication.Runs;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * An application on HSQLDB, which the JDBC store does not support, as many applications' tests
 * run: the start fails with the supported databases and the ways out, and each way out works.
 */
@ExtendWith(OutputCaptureExtension.class)
class HsqldbStartupTests {

	@Test
	void theStartFailsWithTheSupportedDatabasesAndTheWaysOut(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start(hsqldb()).close());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("HSQL Database Engine")
			.contains("PostgreSQL, MariaDB 10.6 or later and H2")
			.contains("idempotency.enabled=false")
			.contains("IdempotencyStore bean of your own");
	}

	@Test
	void idempotencyEnabledFalseStartsTheApplicationAndItsOperationRunsUnguarded() {
		try (ConfigurableApplicationContext context = start(hsqldb(), "idempotency.enabled=false")) {
			Http http = http(context);
			String key = UUID.randomUUID().toString();
			HttpResponse<byte[]> first = http.post("/orders").key(key).json("{\"item\":\"book\"}").send();
			HttpResponse<byte[]> second = http.post("/orders").key(key).json("{\"item\":\"book\"}").send();
			assertThat(first.statusCode()).isEqualTo(201);
			assertThat(second.statusCode()).isEqualTo(201);
			assertThat(second.headers().firstValue("Idempotent-Replayed")).isEmpty();
			assertThat(context.getBean(Runs.class).count()).isEqualTo(2);
			assertThat(context.getBeanNamesForType(IdempotencyStore.class)).isEmpty();
			assertThat(starterTables(context)).isZero();
		}
	}

	@Test
	void aStoreOfTheApplicationsOwnServesTheRecordsAndTheStarterCreatesNoTables() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(HsqlApplication.class)
			.initializers((GenericApplicationContext application) -> application.registerBean(IdempotencyStore.class,
					MapIdempotencyStore::new))
			.properties("server.port=0", "spring.flyway.enabled=false")
			.properties(hsqldb())
			.run()) {
			Http http = http(context);
			String key = UUID.randomUUID().toString();
			HttpResponse<byte[]> first = http.post("/orders").key(key).json("{\"item\":\"book\"}").send();
			HttpResponse<byte[]> replay = http.post("/orders").key(key).json("{\"item\":\"book\"}").send();
			assertThat(first.statusCode()).isEqualTo(201);
			assertThat(replay.statusCode()).isEqualTo(201);
			assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(replay.body()).isEqualTo(first.body());
			assertThat(context.getBean(Runs.class).count()).isOne();
			assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(MapIdempotencyStore.class);
			assertThat(starterTables(context)).isZero();
		}
	}

	private static String hsqldb() {
		return "spring.datasource.url=jdbc:hsqldb:mem:hsqlapp_" + UUID.randomUUID().toString().replace("-", "");
	}

	private static ConfigurableApplicationContext start(String... properties) {
		return new SpringApplicationBuilder(HsqlApplication.class)
			.properties("server.port=0", "spring.flyway.enabled=false")
			.properties(properties)
			.run();
	}

	private static Http http(ConfigurableApplicationContext context) {
		return new Http(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
	}

	private static long starterTables(ConfigurableApplicationContext context) {
		return new JdbcTemplate(context.getBean(DataSource.class)).queryForObject(
				"SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE LOWER(TABLE_NAME) LIKE 'idempotency%'",
				Long.class);
	}

}
