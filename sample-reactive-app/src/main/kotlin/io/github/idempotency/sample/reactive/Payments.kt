package io.github.idempotency.sample.reactive

import java.util.UUID
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.jdbc.core.simple.JdbcClient
import org.springframework.stereotype.Repository

/**
 * What a client asks to pay.
 */
data class PaymentRequest(val customerId: String, val amount: Long, val currency: String)

/**
 * A payment taken, with the fencing token of the call that took it.
 */
data class Payment(val id: String, val customerId: String, val amount: Long, val currency: String, val token: String?)

/**
 * The payments, in the application's database, written off the event loop.
 */
@Repository
class Payments(private val jdbc: JdbcClient) {

	suspend fun take(request: PaymentRequest, token: UUID?): Payment = withContext(Dispatchers.IO) {
		val payment = Payment(UUID.randomUUID().toString(), request.customerId, request.amount, request.currency,
				token?.toString())
		jdbc.sql("INSERT INTO payment (id, customer_id, amount, currency, token) VALUES (?, ?, ?, ?, ?)")
			.params(listOf(payment.id, payment.customerId, payment.amount, payment.currency, payment.token))
			.update()
		payment
	}

	suspend fun count(customerId: String): Long = withContext(Dispatchers.IO) {
		jdbc.sql("SELECT count(*) FROM payment WHERE customer_id = ?").param(customerId).query(Long::class.java)
			.single()
	}

}
