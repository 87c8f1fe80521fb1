package io.github.idempotency.web.reactive;

import java.net.http.HttpResponse;
import java.util.UUID;

import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import reactor.core.publisher.Hooks;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.web.servlet.WebTestSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With Reactor's automatic context propagation on, the log lines a handler's work writes on any
 * thread carry the key's hash and the operation in the MDC, as on Spring MVC, and the lines of
 * other requests on those threads carry neither.
 */
@SpringBootTest(classes = { ReactiveWebTestApplication.class, ReactiveDiagnosticContextTests.Observations.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "spring.reactor.context-propagation=auto",
				"spring.main.allow-bean-definition-overriding=true" })
class ReactiveDiagnosticContextTests {

	static {
		ReactiveTests.installBlockHound();
	}

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webfluxmdc");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	Http http;

	/**
	 * Reactor's hook is global: the WebFlux tests that share this JVM run without it, as they did.
	 */
	@AfterAll
	static void turnAutomaticPropagationOff() {
		Hooks.disableAutomaticContextPropagation();
	}

	@BeforeEach
	void setUp() {
		this.http = new Http(this.port);
	}

	@Test
	void theHandlersWorkOnAnotherThreadSeesTheKeyHashAndTheOperationInTheMdc() {
		String key = "k-" + UUID.randomUUID();
		HttpResponse<byte[]> response = this.http.post("/logged").key(key).json("{}").send();
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(Http.text(response)).contains("\"key\":\"" + KeyHashes.shortHash(key) + "\"")
			.contains("\"operation\":\"logged\"")
			.contains("\"thread\":\"parallel-");
	}

	@Test
	void requestsThatAreNotGuardedSeeNoneOfItOnTheSameThreads() {
		for (int i = 0; i < 20; i++) {
			assertThat(this.http.post("/logged").key("k-" + UUID.randomUUID()).json("{}").send().statusCode())
				.isEqualTo(200);
			HttpResponse<byte[]> unguarded = this.http.post("/unlogged").json("{}").send();
			assertThat(Http.text(unguarded)).contains("\"key\":\"null\"").contains("\"operation\":\"null\"");
		}
	}

	/**
	 * A registry in place of the test application's TestObservationRegistry, whose validator is not
	 * thread-safe: with automatic propagation, scopes open on several threads at once.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class Observations {

		@Bean
		ObservationRegistry observationRegistry() {
			return ObservationRegistry.create();
		}

	}

}
