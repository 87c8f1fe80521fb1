package io.github.idempotency.sample.reactive

import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.runApplication

/**
 * A payments service on Spring WebFlux, in Kotlin with coroutines, whose payment is safe to retry.
 */
@SpringBootApplication
class ReactivePaymentsApplication

fun main(args: Array<String>) {
	runApplication<ReactivePaymentsApplication>(*args)
}
