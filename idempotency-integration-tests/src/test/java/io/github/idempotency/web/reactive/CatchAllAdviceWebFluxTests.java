package io.github.idempotency.web.reactive;

import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.web.servlet.WebTestSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Behind an application's catch-all {@code @RestControllerAdvice} on WebFlux, the starter's own
 * answers (a missing key, a reused key, a replay) are still its own, never the advice's 500; a
 * handler failure is what the advice makes of it, and a 500 releases the key.
 */
@SpringBootTest(classes = { ReactiveWebTestApplication.class, CatchAllAdviceWebFluxTests.CatchAll.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "spring.main.web-application-type=reactive")
class CatchAllAdviceWebFluxTests {

	static {
		ReactiveTests.installBlockHound();
	}

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webfluxcatchall");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	IdempotencyStore store;

	@Autowired
	JdbcTemplate jdbc;

	@Test
	void theStartersRefusalsAndReplaysAreNotTheAdvicesToAnswer() {
		Http http = new Http(this.port);
		String value = UUID.randomUUID().toString();
		HttpResponse<byte[]> missing = http.post("/effects").json(json(value)).send();
		assertThat(missing.statusCode()).isEqualTo(400);
		assertThat(Http.text(missing)).contains("urn:problem-type:idempotency:missing-key");
		HttpResponse<byte[]> first = http.post("/effects").key("k-" + value).json(json(value)).send();
		HttpResponse<byte[]> replay = http.post("/effects").key("k-" + value).json(json(value)).send();
		HttpResponse<byte[]> reused = http.post("/effects").key("k-" + value).json(json(value + "-other")).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(reused.statusCode()).isEqualTo(422);
		assertThat(Http.text(reused)).contains("urn:problem-type:idempotency:key-reused");
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = 'effects' AND detail = ?",
				Long.class, value)).isEqualTo(1);
	}

	@Test
	void aHandlerFailureTheAdviceTurnsIntoA500ReleasesTheKey() {
		Http http = new Http(this.port);
		String key = "k-" + UUID.randomUUID();
		HttpResponse<byte[]> failed = http.post("/refunds/7").key(key).json("{\"amount\":0}").send();
		assertThat(failed.statusCode()).isEqualTo(500);
		assertThat(Http.text(failed)).isEqualTo("caught by the application");
		assertThat(this.store.find(new IdempotencyKey("default", "refunds", key)))
			.hasValueSatisfying((record) -> assertThat(record.isCompleted()).isFalse());
		assertThat(http.post("/refunds/7").key(key).json("{\"amount\":5}").send().statusCode()).isEqualTo(200);
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

	@RestControllerAdvice
	static class CatchAll {

		@ExceptionHandler(Exception.class)
		ResponseEntity<String> any(Exception ex) {
			return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body("caught by the application");
		}

	}

}
