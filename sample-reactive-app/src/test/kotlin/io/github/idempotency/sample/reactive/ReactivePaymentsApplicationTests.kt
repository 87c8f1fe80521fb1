package io.github.idempotency.sample.reactive

import io.github.idempotency.testsupport.Http
import java.util.UUID
import java.util.concurrent.CompletableFuture
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.boot.test.web.server.LocalServerPort
import kotlinx.coroutines.reactor.awaitSingleOrNull
import kotlinx.coroutines.runBlocking
import reactor.blockhound.BlockHound
import reactor.core.publisher.Mono

/**
 * The sample on its embedded default, over real HTTP, with BlockHound watching the event loop: a
 * suspending handler guarded by @Idempotent takes one payment per key, however often it is sent.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ReactivePaymentsApplicationTests {

	companion object {
		init {
			// Kotlin reflection and kotlinx-coroutines-reactive read their jars once, which Spring's
			// first call of a suspending handler would do on the event loop: read them here first.
			// Jackson's caches take a lock on a type's first use. None is a wait of the requests
			// this test makes.
			PaymentController::class.members.forEach { it.returnType }
			runBlocking { Mono.just(1).awaitSingleOrNull() }
			BlockHound.install({ builder ->
				builder.allowBlockingCallsInside("tools.jackson.databind.deser.DeserializerCache",
						"_createAndCacheValueDeserializer")
					.allowBlockingCallsInside("tools.jackson.databind.ser.SerializerCache",
						"_makeAndStoreValueSerializer")
			})
		}
	}

	@LocalServerPort
	var port: Int = 0

	@Test
	fun `a retry with the same key is the first response, byte for byte, and takes no second payment`() {
		val http = Http(port)
		val customer = "c-" + UUID.randomUUID()
		val first = http.post("/payments").key("k-$customer").json(payment(customer, 2999)).send()
		val retry = http.post("/payments").key("k-$customer").json(payment(customer, 2999)).send()
		assertThat(first.statusCode()).isEqualTo(201)
		assertThat(Http.text(first)).contains("\"token\"")
		assertThat(retry.statusCode()).isEqualTo(201)
		assertThat(retry.body()).isEqualTo(first.body())
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true")
		assertThat(retry.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"))
		assertThat(payments(http, customer)).contains("\"payments\":1")
	}

	@Test
	fun `the same key for another payment is refused with 422 and takes nothing`() {
		val http = Http(port)
		val customer = "c-" + UUID.randomUUID()
		http.post("/payments").key("k-$customer").json(payment(customer, 2999)).send()
		val other = http.post("/payments").key("k-$customer").json(payment(customer, 5000)).send()
		assertThat(other.statusCode()).isEqualTo(422)
		assertThat(other.headers().firstValue("Content-Type")).hasValue("application/problem+json")
		assertThat(payments(http, customer)).contains("\"payments\":1")
	}

	@Test
	fun `sixteen concurrent requests with one key take one payment`() {
		val http = Http(port)
		val customer = "c-" + UUID.randomUUID()
		val responses = (1..16).map {
			http.post("/payments").key("k-$customer").json(payment(customer, 100)).sendAsync()
		}
		CompletableFuture.allOf(*responses.toTypedArray()).join()
		val statuses = responses.map { it.join().statusCode() }
		assertThat(statuses).allMatch { it == 201 || it == 409 }.contains(201)
		assertThat(payments(http, customer)).contains("\"payments\":1")
	}

	@Test
	fun `a payment without a key is refused with 400`() {
		val response = Http(port).post("/payments").json(payment("c-none", 1)).send()
		assertThat(response.statusCode()).isEqualTo(400)
		assertThat(Http.text(response)).contains("urn:problem-type:idempotency:missing-key")
	}

	private fun payments(http: Http, customer: String): String =
		Http.text(http.get("/customers/$customer/payments/count").send())

	private fun payment(customer: String, amount: Long): String =
		"{\"customerId\":\"$customer\",\"amount\":$amount,\"currency\":\"USD\"}"

}
