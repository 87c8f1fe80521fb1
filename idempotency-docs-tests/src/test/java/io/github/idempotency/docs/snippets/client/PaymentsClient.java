package io.github.idempotency.docs.snippets.client;

// tag::client[]
import org.springframework.web.client.RestClient;

import io.github.idempotency.client.IdempotencyKeyRetryInterceptor;
// end::client[]

/**
 * A client of a payments service that retries each logical call under one key.
 */
class PaymentsClient {

	RestClient payments() {
		// tag::client[]
		RestClient payments = RestClient.builder()
			.baseUrl("https://payments.example.com")
			.requestInterceptor(IdempotencyKeyRetryInterceptor.withDefaults())
			.build();
		// end::client[]
		return payments;
	}

}
