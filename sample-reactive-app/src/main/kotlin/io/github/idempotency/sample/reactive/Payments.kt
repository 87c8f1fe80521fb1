package io.github.idempotency.sample.reactive

import java.util.UUID
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.dao.DuplicateKeyException
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
 * The payments, in the application's database, written off the event loop; one per idempotency
 * key, so that the payment itself is idempotent, as the effect of a LEASED operation must be.
 */
@Repository
class Payments(private val jdbc: JdbcClient) {

	suspend fun take(request: PaymentRequest, token: UUID?, key: String?): Payment = withContext(Dispatchers.IO) {
		val payment = Payment(UUID.randomUUID().toString(), request.customerId, request.amount, request.currency,
				token?.toString())
		try {
			jdbc.sql("""
					INSERT INTO payment (id, customer_id, amount, currency, token, idempotency_key)
					VALUES (?, ?, ?, ?, ?, ?)
					""")
				.params(listOf(payment.id, payment.customerId, payment.amount, payment.currency, payment.token, key))
				.update()
			payment
		}
		catch (ex: DuplicateKeyException) {
			jdbc.sql("SELECT id, customer_id, amount, currency, token FROM payment WHERE idempotency_key = ?")
				.param(key)
				.query { rs, _ ->
					Payment(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4), rs.getString(5))
				}
				.single()
		}
	}

	suspend fun count(customerId: String): Long = withContext(Dispatchers.IO) {
		jdbc.sql("SELECT count(*) FROM payment WHERE customer_id = ?").param(customerId).query(Long::class.java)
			.single()
	}

}
