package io.github.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The threads of accepted requests are bounded and so is their queue: beyond it a new request is
 * refused with 503 and Retry-After, its key released, and nothing runs.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "idempotency.operations.reports.accept-after=0s", "idempotency.accepted.threads=1",
				"idempotency.accepted.queue-capacity=0" })
class AcceptedWorkersQueueWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webacceptedqueue");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	WebTestApplication.Gate gate;

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void aRequestBeyondTheQueueIsRefusedWith503AndItsKeyIsReleased() throws Exception {
		Http http = new Http(this.port);
		this.gate.close();
		String busy = UUID.randomUUID().toString();
		HttpResponse<byte[]> accepted = http.post("/reports").key("k-" + busy).json(json(busy)).send();
		assertThat(accepted.statusCode()).isEqualTo(202);
		assertThat(this.gate.awaitEntered()).isTrue();
		String refused = UUID.randomUUID().toString();
		HttpResponse<byte[]> response = http.post("/reports").key("k-" + refused).json(json(refused)).send();
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(this.jdbc.queryForObject("SELECT status FROM idempotency_record WHERE idempotency_key = ?",
				String.class, "k-" + refused)).isEqualTo("RELEASED");
		this.gate.open();
		String link = accepted.headers().firstValue("Location").orElseThrow();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> http.get(link).send().headers().firstValue("Idempotent-Replayed").isPresent());
		HttpResponse<byte[]> retry = http.post("/reports").key("k-" + refused).json(json(refused)).send();
		assertThat(retry.statusCode()).isIn(201, 202);
		assertThat(this.gate.awaitEntered(2)).isTrue();
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
