package io.github.idempotency.redisweb;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.idempotency.redisweb.RedisWebApplication.Gate;
import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application whose Redis cannot be reached answers idempotent requests with a clean 503 that
 * says to retry, and runs nothing: no effect may run without a claim.
 */
class RedisOutageWebTests {

	private static ConfigurableApplicationContext application;

	@BeforeAll
	static void startWithoutRedis() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		application = new SpringApplicationBuilder(RedisWebApplication.class)
			.properties("server.port=0", "idempotency.store.type=redis", "spring.data.redis.port=" + closedPort,
					"spring.data.redis.connect-timeout=1s", "spring.data.redis.timeout=2s",
					"management.endpoints.web.exposure.include=health",
					"management.endpoint.health.show-components=always")
			.run();
	}

	@AfterAll
	static void stop() {
		application.close();
	}

	@Test
	void anIdempotentRequestIsAnsweredUnavailableWithRetryAfterAndDoesNotRun() {
		HttpResponse<byte[]> response = http().post("/payments").key("k-1").json("{\"value\":\"v\"}").send();
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.headers().firstValue("Retry-After")).isPresent();
		assertThat(Http.text(response)).contains("store-unavailable");
		assertThat(application.getBean(Gate.class).entered()).isZero();
	}

	@Test
	void theStoreIsDownInHealth() {
		HttpResponse<byte[]> health = http().get("/actuator/health").send();
		assertThat(health.statusCode()).isEqualTo(503);
		assertThat(Http.text(health)).contains("\"idempotency\":{\"status\":\"DOWN\"");
	}

	private static Http http() {
		return new Http(((WebServerApplicationContext) application).getWebServer().getPort());
	}

}
