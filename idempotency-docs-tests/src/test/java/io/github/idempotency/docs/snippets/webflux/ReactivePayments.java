package io.github.idempotency.docs.snippets.webflux;

import java.net.URI;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.web.reactive.ReactiveIdempotencyContext;

/**
 * A Spring WebFlux controller whose handlers are guarded. Not a bean here: it compiles, in a
 * Spring MVC application.
 */
class ReactivePayments {

	private final PaymentGateway gateway;

	ReactivePayments(PaymentGateway gateway) {
		this.gateway = gateway;
	}

	// tag::controller[]
	@Idempotent
	@PostMapping("/payments")
	Mono<ResponseEntity<Payment>> pay(@RequestBody PaymentRequest request) {
		return ReactiveIdempotencyContext.require()
			.flatMap((context) -> this.gateway.charge(request, context.fencingToken()))
			.map((payment) -> ResponseEntity.created(URI.create("/payments/" + payment.id())).body(payment));
	}
	// end::controller[]

	// tag::flux[]
	@Idempotent(operation = "refund-lines")
	@PostMapping("/refunds")
	Flux<RefundLine> refund(@RequestBody RefundRequest request) {
		return this.gateway.refund(request);
	}
	// end::flux[]

	interface PaymentGateway {

		Mono<Payment> charge(PaymentRequest request, java.util.UUID fencingToken);

		Flux<RefundLine> refund(RefundRequest request);

	}

	record PaymentRequest(String customerId, long amount, String currency) {
	}

	record Payment(String id, long amount) {
	}

	record RefundRequest(String paymentId) {
	}

	record RefundLine(String paymentId, long amount) {
	}

}
