package io.github.idempotency.sample.reactive

import io.github.idempotency.annotation.Idempotent
import io.github.idempotency.web.reactive.ReactiveIdempotencyContext
import java.net.URI
import kotlinx.coroutines.reactor.awaitSingleOrNull
import org.slf4j.Logger
import org.slf4j.LoggerFactory
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RequestHeader
import org.springframework.web.bind.annotation.RestController

/**
 * Takes payments: a retry with the same Idempotency-Key is answered with the first response, byte
 * for byte, and never takes a second payment.
 */
@RestController
class PaymentController(private val payments: Payments, private val crashWindows: CrashWindows) {

	@Idempotent
	@PostMapping("/payments")
	suspend fun pay(@RequestBody request: PaymentRequest,
			@RequestHeader("X-Sample-Hold", required = false) hold: String?): ResponseEntity<Payment> {
		// The claimed key and its fencing token: absent only when idempotency.enabled=false.
		val context = ReactiveIdempotencyContext.current().awaitSingleOrNull()
		crashWindows.hold("after-claim", hold)
		val key = context?.let { "${it.key().tenant()}|${it.key().key()}" }
		val payment = payments.take(request, context?.fencingToken(), key)
		// With spring.reactor.context-propagation=auto, this line would carry the key's hash and the
		// operation in the MDC, although the coroutine resumed on another thread (docs/webflux.md).
		logger.info("Took payment {}", payment.id)
		crashWindows.hold("after-payment", hold)
		return ResponseEntity.created(URI.create("/payments/${payment.id}")).body(payment)
	}

	private companion object {
		val logger: Logger = LoggerFactory.getLogger(PaymentController::class.java)
	}

	@GetMapping("/customers/{customerId}/payments/count")
	suspend fun count(@PathVariable customerId: String): Map<String, Long> =
		mapOf("payments" to payments.count(customerId))

}
