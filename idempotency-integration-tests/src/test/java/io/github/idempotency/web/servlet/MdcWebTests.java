package io.github.idempotency.web.servlet;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.Outcome;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MDC of an idempotent request carries its operation and a short hash of its key while it
 * runs, and its outcome once known; never the key itself.
 */
@DirtiesContext
@SpringBootTest(classes = { WebTestApplication.class, MdcWebTests.MdcConfiguration.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MdcWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webmdc");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
		registry.add("spring.datasource.hikari.maximum-pool-size", () -> "4");
	}

	@LocalServerPort
	int port;

	@Autowired
	MdcConfiguration recorded;

	@Test
	void theHandlerSeesTheOperationAndTheKeyHashAndTheOutcomeFollowsOnceKnown() {
		String key = "mdc-" + UUID.randomUUID();
		Http http = new Http(this.port);
		JsonNode seen = JsonMapper.builder().build().readTree(http.post("/mdc").key(key).send().body());
		assertThat(seen.path("idempotency.operation").asString()).isEqualTo("mdc");
		assertThat(seen.path("idempotency.key").asString()).isEqualTo(KeyHashes.shortHash(key));
		assertThat(seen.has("idempotency.outcome")).isFalse();
		assertThat(http.post("/mdc").key(key).send().statusCode()).isEqualTo(200);
		List<Map<String, String>> outcomes = this.recorded.outcomes.stream()
			.filter((mdc) -> KeyHashes.shortHash(key).equals(mdc.get("idempotency.key")))
			.toList();
		assertThat(outcomes).extracting((mdc) -> mdc.get("idempotency.outcome"))
			.containsExactly(Outcome.EXECUTED.tag(), Outcome.REPLAYED.tag());
		assertThat(outcomes).allSatisfy((mdc) -> {
			assertThat(mdc.get("idempotency.operation")).isEqualTo("mdc");
			assertThat(mdc.values()).doesNotContain(key);
		});
	}

	@Test
	void aRequestWithoutAKeyCarriesTheOperationAndItsOutcome() {
		assertThat(new Http(this.port).post("/mdc").send().statusCode()).isEqualTo(400);
		assertThat(this.recorded.outcomes).anySatisfy((mdc) -> {
			assertThat(mdc.get("idempotency.operation")).isEqualTo("mdc");
			assertThat(mdc.get("idempotency.outcome")).isEqualTo(Outcome.MISSING_KEY.tag());
			assertThat(mdc.get("idempotency.key")).isNull();
		});
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class MdcConfiguration {

		final List<Map<String, String>> outcomes = new CopyOnWriteArrayList<>();

		@Bean
		MdcController mdcController() {
			return new MdcController();
		}

		@Bean
		IdempotencyListener mdcRecorder() {
			return new IdempotencyListener() {

				@Override
				public void onOutcome(String operation, Outcome outcome) {
					MdcConfiguration.this.outcomes.add(idempotencyMdc());
				}

			};
		}

	}

	@RestController
	static class MdcController {

		@Idempotent(operation = "mdc")
		@PostMapping("/mdc")
		Map<String, String> mdc() {
			return idempotencyMdc();
		}

	}

	static Map<String, String> idempotencyMdc() {
		Map<String, String> mdc = new HashMap<>();
		for (String name : List.of("idempotency.operation", "idempotency.key", "idempotency.outcome")) {
			String value = MDC.get(name);
			if (value != null) {
				mdc.put(name, value);
			}
		}
		return mdc;
	}

}
