package io.github.idempotency.sample.client;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import io.github.idempotency.client.IdempotencyKeyRetryInterceptor;
import io.github.idempotency.sample.support.PostgresFlowTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's client demo: a {@code RestClient} with {@link IdempotencyKeyRetryInterceptor}
 * pays through a gateway that fails the first attempt with 503, retries with the same key after
 * {@code Retry-After}, and the customer is charged exactly once.
 */
class FlakyGatewayClientTests extends PostgresFlowTest {

	@Test
	void retryingClientPaysThroughFlakyGatewayWithOneChargeInTwoAttempts() {
		String customer = "flaky-" + UUID.randomUUID().toString().substring(0, 8);
		List<String> attemptKeys = new CopyOnWriteArrayList<>();
		RestClient client = RestClient.builder()
			.baseUrl("http://localhost:" + this.port)
			.requestInterceptor(IdempotencyKeyRetryInterceptor.withDefaults())
			.requestInterceptor((request, body, execution) -> {
				attemptKeys.add(request.getHeaders().getFirst("Idempotency-Key"));
				return execution.execute(request, body);
			})
			.build();
		ResponseEntity<String> payment = client.post()
			.uri("/payments")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"customerId\":\"" + customer + "\",\"amount\":2999,\"currency\":\"USD\"}")
			.retrieve()
			.toEntity(String.class);
		assertThat(payment.getStatusCode().value()).isEqualTo(201);
		assertThat(payment.getBody()).contains("\"status\":\"SUCCEEDED\"");
		assertThat(attemptKeys).hasSize(2);
		assertThat(attemptKeys.get(0)).isNotBlank().isEqualTo(attemptKeys.get(1));
		assertThat(this.db.payments()).isOne();
		assertThat(this.db.charges(customer)).isOne();
	}

}
