package io.github.idempotency.web.reactive;

import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.web.servlet.WebTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A functional endpoint's route guarded by {@link IdempotentRoutes}: the HTTP contract of an
 * annotated handler, on Reactor Netty and PostgreSQL, under BlockHound.
 */
@SpringBootTest(classes = ReactiveWebTestApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "idempotency.max-body-size=2KB",
				"idempotency.operations.atomic-route.mode=ATOMIC" })
class FunctionalEndpointTests {

	static {
		ReactiveTests.installBlockHound();
	}

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webfluxroutes");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	IdempotentRoutes idempotentRoutes;

	@Test
	void aGuardedRouteRunsOnceAndReplaysItsResponseByteForByte() {
		Http http = new Http(this.port);
		String value = UUID.randomUUID().toString();
		HttpResponse<byte[]> first = http.post("/routed").key("k-" + value).json(json(value)).send();
		HttpResponse<byte[]> replay = http.post("/routed").key("k-" + value).json("{ \"value\" : \"" + value + "\" }")
			.send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(Http.text(first)).contains("\"token\"");
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(effects(value)).isEqualTo(1);
	}

	@Test
	void aGuardedRouteRefusesAMissingKeyAReusedKeyAndABodyOverTheLimitAndRunsNothing() {
		Http http = new Http(this.port);
		String value = UUID.randomUUID().toString();
		HttpResponse<byte[]> missing = http.post("/routed").json(json(value)).send();
		assertThat(missing.statusCode()).isEqualTo(400);
		assertThat(Http.text(missing)).contains("urn:problem-type:idempotency:missing-key");
		HttpResponse<byte[]> tooLarge = http.post("/routed").key("big-" + value)
			.json("{\"value\":\"" + value + "\",\"padding\":\"" + "x".repeat(4096) + "\"}")
			.send();
		assertThat(tooLarge.statusCode()).isEqualTo(413);
		assertThat(effects(value)).isZero();
		http.post("/routed").key("k-" + value).json(json(value)).send();
		HttpResponse<byte[]> reused = http.post("/routed").key("k-" + value).json(json(value + "-other")).send();
		assertThat(reused.statusCode()).isEqualTo(422);
		assertThat(Http.text(reused)).contains("urn:problem-type:idempotency:key-reused");
		assertThat(effects(value)).isEqualTo(1);
		assertThat(effects(value + "-other")).isZero();
	}

	@Test
	void aRouteOfAnAtomicOperationIsRefusedWhenItIsBuilt() {
		assertThatIllegalStateException().isThrownBy(() -> this.idempotentRoutes.operation("atomic-route"))
			.withMessageContaining("ATOMIC mode is not available");
	}

	private long effects(String value) {
		return this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = 'routed' AND detail = ?",
				Long.class, value);
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
