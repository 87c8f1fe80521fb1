package io.github.idempotency.sample.reactive

import io.github.idempotency.testsupport.Http
import io.github.idempotency.testsupport.LocalPorts
import io.github.idempotency.testsupport.PostgresTestDatabase
import java.net.http.HttpResponse
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.UUID
import java.util.concurrent.CompletableFuture
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource

/**
 * `kill -9` of the packaged reactive sample on PostgreSQL while a payment is held after its claim,
 * or after the payment was written but before its response was stored; then a restart: the key is
 * left claimed (neither released nor completed), a retry takes it over once its lease has run out,
 * and the payment ends with exactly one payment row, as on Spring MVC (its effect is idempotent by
 * its key).
 */
class ReactiveProcessCrashIT {

	@ParameterizedTest
	@ValueSource(strings = ["after-claim", "after-payment"])
	fun `a payment killed mid-way and retried after a restart takes one payment`(point: String) {
		val database = PostgresTestDatabase.create("reactivecrash")
		val customer = "c-" + UUID.randomUUID()
		val key = "crash-$point-$customer"
		val body = "{\"customerId\":\"$customer\",\"amount\":4200,\"currency\":\"EUR\"}"
		val first = SampleProcess.start(database, "$point-first")
		val held: CompletableFuture<HttpResponse<ByteArray>>
		try {
			held = Http(first.port).post("/payments").key(key).header("X-Sample-Hold", point).json(body).sendAsync()
			await().atMost(Duration.ofSeconds(30)).until { first.logged("HOLD $point") }
		}
		finally {
			first.kill()
		}
		assertThat(held).failsWithin(Duration.ofSeconds(30))
		assertThat(status(database, key)).isEqualTo("IN_PROGRESS")
		val second = SampleProcess.start(database, "$point-second")
		try {
			val http = Http(second.port)
			lateinit var retry: HttpResponse<ByteArray>
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until {
				retry = http.post("/payments").key(key).json(body).send()
				retry.statusCode() != 409
			}
			assertThat(retry.statusCode()).isEqualTo(201)
			val replay = http.post("/payments").key(key).json(body).send()
			assertThat(replay.body()).isEqualTo(retry.body())
			assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true")
			assertThat(Http.text(http.get("/customers/$customer/payments/count").send())).contains("\"payments\":1")
			assertThat(status(database, key)).isEqualTo("COMPLETED")
		}
		finally {
			second.kill()
		}
	}

	/**
	 * The status of the key's record, read from the database: the killed application cannot say.
	 */
	private fun status(database: PostgresTestDatabase, key: String): String? =
		database.connect().use { connection ->
			connection.prepareStatement("SELECT status FROM idempotency_record WHERE idempotency_key = ?").use {
				it.setString(1, key)
				it.executeQuery().use { rows -> if (rows.next()) rows.getString(1) else null }
			}
		}

	/**
	 * The packaged sample as a process of its own, on the given database, with a short lease.
	 */
	private class SampleProcess(private val process: Process, private val log: Path, val port: Int) {

		fun logged(text: String): Boolean = Files.exists(log) && Files.readString(log).contains(text)

		/**
		 * Kill the process as `kill -9` does (SIGKILL) and wait for it to end.
		 */
		fun kill() {
			process.destroyForcibly().waitFor()
		}

		companion object {

			fun start(database: PostgresTestDatabase, name: String): SampleProcess {
				val port = LocalPorts.free()
				val log = Path.of("target", "reactive-crash-$name.log")
				val process = ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
						"-jar", System.getProperty("sample.jar"), "--spring.profiles.active=postgres",
						"--server.port=$port", "--spring.datasource.url=" + database.url(),
						"--spring.datasource.username=" + database.username(),
						"--spring.datasource.password=" + database.password(), "--sample.crash-windows=true",
						"--idempotency.default-lease=3s")
					.redirectErrorStream(true)
					.redirectOutput(log.toFile())
					.start()
				val sample = SampleProcess(process, log, port)
				await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until {
					check(process.isAlive) { "The sample exited; see $log" }
					runCatching { Http(port).get("/customers/c/payments/count").send().statusCode() == 200 }
						.getOrDefault(false)
				}
				return sample
			}

		}

	}

}
