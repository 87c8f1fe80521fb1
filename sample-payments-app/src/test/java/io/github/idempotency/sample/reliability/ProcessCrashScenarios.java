package io.github.idempotency.sample.reliability;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.KeyHashes;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kills the packaged application with {@code kill -9} while it holds one payment at each crash
 * window, restarts it on the same database and lets each test retry one of those payments.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ProcessCrashScenarios {

	static final Duration LEASE = Duration.ofSeconds(2);

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final String mode;

	private final String name;

	private final Supplier<RedisRecords> redisRecords;

	private final Function<String, SampleDatabase> databases;

	private SampleDatabase database;

	private RedisRecords redis;

	protected ReliabilityDatabase db;

	private SampleProcess restarted;

	private final Map<Window, Crash> crashes = new EnumMap<>(Window.class);

	ProcessCrashScenarios(String mode) {
		this(mode, mode.toLowerCase(), null);
	}

	/**
	 * Scenarios in a mode on a store.
	 * @param mode the mode of {@code create-payment}
	 * @param name a short name for the database and the logs
	 * @param redisRecords the Redis the records are kept in, or {@code null} for the database
	 */
	ProcessCrashScenarios(String mode, String name, Supplier<RedisRecords> redisRecords) {
		this(mode, name, redisRecords, SampleDatabase::postgres);
	}

	/**
	 * Scenarios in a mode on a store and a database.
	 * @param mode the mode of {@code create-payment}
	 * @param name a short name for the database and the logs
	 * @param redisRecords the Redis the records are kept in, or {@code null} for the database
	 * @param databases creates the database from a name
	 */
	ProcessCrashScenarios(String mode, String name, Supplier<RedisRecords> redisRecords,
			Function<String, SampleDatabase> databases) {
		this.mode = mode;
		this.name = name;
		this.redisRecords = redisRecords;
		this.databases = databases;
	}

	@BeforeAll
	void killTheApplicationWithAPaymentHeldAtEachWindowThenRestartIt() throws Exception {
		this.database = this.databases.apply("crash_" + this.name);
		this.redis = (this.redisRecords != null) ? this.redisRecords.get() : null;
		this.db = this.database.reader(this.redis);
		long started = System.nanoTime();
		Map<Window, Held> held = new EnumMap<>(Window.class);
		try (SampleProcess crashing = this.database.startProcess(this.name + "-crashing",
				arguments("--sample.crash-windows.hold=5m"))) {
			for (Window window : Window.values()) {
				String key = newKey();
				String body = body(customer("hold-" + window.slug + "-"), 4200, "EUR");
				held.put(window, new Held(key, body, crashing.http().post("/payments").key(key).json(body).sendAsync()));
			}
			held.forEach((window, payment) -> crashing
				.awaitLog("Crash window " + window.slug + ": holding payment of key #"
						+ KeyHashes.shortHash(payment.key()) + " "));
			held.forEach((window, payment) -> this.crashes.put(window, new Crash(window, payment.key(), payment.body(),
					this.db.recordOf(payment.key()), this.db.paymentOf(payment.key()), this.db.chargeOf(payment.key()))));
			crashing.kill();
		}
		held.forEach((window, payment) -> assertThat(payment.answer())
			.as("the answer to the request killed %s", window.slug)
			.failsWithin(TIMEOUT));
		long killed = System.nanoTime();
		this.restarted = this.database.startProcess(this.name + "-restarted", arguments());
		System.out.printf("%s crash: started, held and killed in %d ms, restarted in %d ms%n", this.name,
				TimeUnit.NANOSECONDS.toMillis(killed - started), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
	}

	@AfterAll
	void stopTheRestartedApplication() {
		if (this.restarted != null) {
			this.restarted.close();
		}
		if (this.redis != null) {
			this.redis.close();
		}
	}

	/**
	 * Return what the crash at a window left behind.
	 * @param window the window
	 * @return the crash
	 */
	Crash crashedAt(Window window) {
		return this.crashes.get(window);
	}

	/**
	 * Retry the crashed payment with its key and body on the restarted application until it is no
	 * longer answered with an in-progress conflict.
	 * @param crash the crashed payment
	 * @return the first answer that is not a conflict, and how many conflicts came before it
	 */
	Retry retry(Crash crash) {
		AtomicInteger conflicts = new AtomicInteger();
		HttpResponse<byte[]> response = await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> {
			HttpResponse<byte[]> answer = this.restarted.http().post("/payments").key(crash.key()).json(crash.body())
				.send();
			if (answer.statusCode() == 409) {
				assertThat(json(answer).get("type").asString()).isEqualTo("urn:problem-type:idempotency:in-progress");
				conflicts.incrementAndGet();
			}
			return answer;
		}, (answer) -> answer.statusCode() != 409);
		return new Retry(response, conflicts.get());
	}

	/**
	 * Assert that a retry ran the payment to its end, with exactly one payment and one charge for
	 * its key, the answer stored as completed and replayed byte for byte from then on.
	 * @param crash the crashed payment
	 * @param retry the retry's answer
	 * @param attempts how many calls the gateway must have counted for the charge
	 * @return the payment the retry answered with
	 */
	JsonNode assertRetryChargedOnce(Crash crash, Retry retry, int attempts) {
		HttpResponse<byte[]> response = retry.response();
		assertThat(response.statusCode()).isEqualTo(201);
		assertThat(response.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.db.paymentsOf(crash.key())).isOne();
		assertThat(this.db.chargesOf(crash.key())).isOne();
		Map<String, Object> charge = this.db.chargeOf(crash.key());
		assertThat(charge).containsEntry("status", "SUCCEEDED").containsEntry("attempts", attempts);
		JsonNode payment = json(response);
		assertThat(payment.get("status").asString()).isEqualTo("SUCCEEDED");
		assertThat(payment.get("gatewayChargeId").asString()).isEqualTo(charge.get("id"));
		assertThat(this.db.paymentOf(crash.key())).containsEntry("id", payment.get("id").asLong())
			.containsEntry("status", "SUCCEEDED")
			.containsEntry("gateway_charge_id", charge.get("id"));
		Map<String, Object> record = this.db.recordOf(crash.key());
		assertThat(record).containsEntry("status", "COMPLETED").containsEntry("response_status", 201);
		assertThat((byte[]) record.get("response_body")).isEqualTo(response.body());
		HttpResponse<byte[]> replay = this.restarted.http().post("/payments").key(crash.key()).json(crash.body()).send();
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(response.body());
		assertThat(this.db.chargeOf(crash.key())).containsEntry("attempts", attempts);
		System.out.printf("%s crash %s: %d conflicts before the retry ran; %d payment(s), %d charge(s), "
				+ "charge attempts %s, record %s%n", this.name, crash.window().slug, retry.conflicts(),
				this.db.paymentsOf(crash.key()), this.db.chargesOf(crash.key()), charge.get("attempts"),
				record.get("status"));
		return payment;
	}

	private String[] arguments(String... more) {
		List<String> all = new ArrayList<>(List.of("--idempotency.operations.create-payment.mode=" + this.mode,
				"--idempotency.operations.create-payment.lease=" + LEASE.toMillis() + "ms"));
		if (this.redis != null) {
			all.addAll(this.redis.arguments());
		}
		all.addAll(List.of(more));
		return all.toArray(String[]::new);
	}

	/**
	 * The points of a payment at which the application is killed.
	 */
	enum Window {

		/**
		 * The key is claimed and the payment recorded as pending; the gateway was not called.
		 */
		BEFORE_CHARGE("before-charge"),

		/**
		 * The gateway committed the charge; the payment does not know it yet.
		 */
		AFTER_CHARGE("after-charge"),

		/**
		 * The payment is settled; the response is not stored yet.
		 */
		AFTER_SETTLE("after-settle");

		private final String slug;

		Window(String slug) {
			this.slug = slug;
		}

	}

	/**
	 * A payment whose application was killed, and what the database held at the kill.
	 *
	 * @param window where the payment was held when the application was killed
	 * @param key the idempotency key
	 * @param body the request body
	 * @param record the idempotency record at the kill, or {@code null}
	 * @param payment the payment at the kill, or {@code null}
	 * @param charge the gateway charge at the kill, or {@code null}
	 */
	record Crash(Window window, String key, String body, Map<String, Object> record, Map<String, Object> payment,
			Map<String, Object> charge) {

	}

	/**
	 * A payment sent to the application that is going to be killed.
	 *
	 * @param key the idempotency key
	 * @param body the request body
	 * @param answer the answer, which never comes
	 */
	private record Held(String key, String body, CompletableFuture<HttpResponse<byte[]>> answer) {

	}

	/**
	 * The answer to a retry after the crash.
	 *
	 * @param response the first answer that was not an in-progress conflict
	 * @param conflicts how many in-progress conflicts came before it
	 */
	record Retry(HttpResponse<byte[]> response, int conflicts) {

	}

}
