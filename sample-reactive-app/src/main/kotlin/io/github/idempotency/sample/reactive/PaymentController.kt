package io.github.idempotency.sample.reactive

import io.github.idempotency.annotation.Idempotent
import io.github.idempotency.web.reactive.ReactiveIdempotencyContext
import java.net.URI
import kotlinx.coroutines.reactor.awaitSingleOrNull
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RestController

/**
 * Takes payments: a retry with the same Idempotency-Key is answered with the first response, byte
 * for byte, and never takes a second payment.
 */
@RestController
class PaymentController(private val payments: Payments) {

	@Idempotent
	@PostMapping("/payments")
	suspend fun pay(@RequestBody request: PaymentRequest): ResponseEntity<Payment> {
		// The fencing token of this claim of the key: absent only when idempotency.enabled=false.
		val context = ReactiveIdempotencyContext.current().awaitSingleOrNull()
		val payment = payments.take(request, context?.fencingToken())
		return ResponseEntity.created(URI.create("/payments/${payment.id}")).body(payment)
	}

	@GetMapping("/customers/{customerId}/payments/count")
	suspend fun count(@PathVariable customerId: String): Map<String, Long> =
		mapOf("payments" to payments.count(customerId))

}
