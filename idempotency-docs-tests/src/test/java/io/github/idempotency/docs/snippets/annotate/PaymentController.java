package io.github.idempotency.docs.snippets.annotate;

import java.net.URI;
import java.util.UUID;

// tag::payment-controller[]
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.annotation.Idempotent;

@RestController
class PaymentController {

	@PostMapping("/payments")
	@Idempotent(operation = "create-payment")
	ResponseEntity<PaymentResponse> create(@RequestBody CreatePayment request) {
		// runs once per (tenant, operation, key); retries get the stored response
		String downstreamKey = IdempotencyContext.require().scopedKey();
		PaymentResponse payment = new PaymentResponse(UUID.randomUUID().toString(), request.customerId(),
				request.amount(), request.currency(), downstreamKey);
		return ResponseEntity.created(URI.create("/payments/" + payment.id())).body(payment);
	}

}
// end::payment-controller[]
