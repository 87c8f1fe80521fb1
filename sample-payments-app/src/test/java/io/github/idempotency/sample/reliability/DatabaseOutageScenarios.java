package io.github.idempotency.sample.reliability;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Takes the database away from one application instance under load, terminating every
 * connection again and again and then refusing new ones for a while, and checks what the requests
 * caught in it were answered, what was stored for them, and that retrying every key converges.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DatabaseOutageScenarios {

	private static final String STORE_UNAVAILABLE = "urn:problem-type:idempotency:store-unavailable";

	private static final String DATABASE_UNAVAILABLE = "https://payments.example/problems/database-unavailable";

	private static final int THREADS = 8;

	private static final int CREATED_BEFORE_AND_AFTER = 40;

	private static final Duration LEASE = Duration.ofSeconds(2);

	private static final Duration FLAPPING = Duration.ofMillis(1500);

	private static final Duration DOWN = Duration.ofMillis(1500);

	private static final Duration NO_HANG = Duration.ofSeconds(10);

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private final String mode;

	private PostgresTestDatabase database;

	private ReliabilityDatabase db;

	private SampleInstance app;

	DatabaseOutageScenarios(String mode) {
		this.mode = mode;
	}

	/**
	 * Start the instance with a short lease and a pool that gives up on a connection after half a
	 * second, larger than the load threads so that an ATOMIC payment always finds the second
	 * connection its gateway call needs.
	 */
	@BeforeAll
	void startApplication() {
		this.database = PostgresTestDatabase.create("outage_" + this.mode.toLowerCase());
		this.db = new ReliabilityDatabase(this.database);
		this.app = SampleInstance.start(this.database, "--idempotency.operations.create-payment.mode=" + this.mode,
				"--idempotency.operations.create-payment.lease=" + LEASE.toMillis() + "ms",
				"--spring.datasource.hikari.maximum-pool-size=" + (THREADS + 2),
				"--spring.datasource.hikari.connection-timeout=500",
				"--spring.datasource.hikari.validation-timeout=250", "--sample.gateway.latency=20ms");
	}

	@AfterAll
	void stopApplication() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void requestsCaughtInTheOutageFailWithACleanProblemAndRetriesConvergeToOnePaymentAndOneChargePerKey()
			throws Exception {
		List<Sent> sent = sendThroughAnOutage();
		assertThat(sent).allSatisfy(this::assertCreatedOrCleanProblem);
		assertThat(sent).as("requests caught in the outage").anyMatch((s) -> s.status() == 503);
		assertNothingStoredWithoutItsEffects();
		report(sent);
		int conflicts = 0;
		for (Sent s : sent) {
			conflicts += retry(s);
		}
		System.out.printf("%s outage retries: %d keys, %d conflicts before leases ran out; %d payments, %d charges, "
				+ "%d charges asked for more than once%n", this.mode, sent.size(), conflicts,
				this.db.payments().payments(), this.db.payments().charges(),
				this.db.count("SELECT count(*) FROM gateway_charge WHERE attempts > 1"));
		assertThat(this.db.payments().payments()).isEqualTo(sent.size());
		assertThat(this.db.payments().charges()).isEqualTo(sent.size());
		assertThat(this.db.count("SELECT count(*) FROM payment p JOIN gateway_charge c ON c.id = p.gateway_charge_id "
				+ "WHERE p.status = 'SUCCEEDED' AND c.status = 'SUCCEEDED' "
				+ "AND c.idempotency_key = 'default:create-payment:' || p.idempotency_key")).isEqualTo(sent.size());
		assertThat(this.db.count("SELECT count(*) FROM idempotency_record WHERE status = 'COMPLETED'"))
			.isEqualTo(sent.size());
		assertThat(this.db.recordsInProgress()).isZero();
		assertNothingStoredWithoutItsEffects();
	}

	/**
	 * Send payments with new keys from several threads until enough were created, through an
	 * outage, until enough were created again after it.
	 */
	private List<Sent> sendThroughAnOutage() throws Exception {
		Queue<Sent> sent = new ConcurrentLinkedQueue<>();
		AtomicBoolean stop = new AtomicBoolean();
		CyclicBarrier start = new CyclicBarrier(THREADS + 1);
		ExecutorService threads = Executors.newFixedThreadPool(THREADS);
		try {
			List<Future<?>> load = new ArrayList<>();
			Http http = this.app.http();
			for (int i = 0; i < THREADS; i++) {
				load.add(threads.submit(() -> {
					start.await();
					while (!stop.get()) {
						String key = newKey();
						String body = body(customer("c-"), 500, "EUR");
						long began = System.nanoTime();
						HttpResponse<byte[]> response = http.post("/payments").key(key).json(body).send();
						sent.add(new Sent(key, body, response, Duration.ofNanos(System.nanoTime() - began)));
					}
					return null;
				}));
			}
			start.await();
			await().atMost(TIMEOUT).until(() -> created(sent) >= CREATED_BEFORE_AND_AFTER);
			int terminated = outage(sent);
			long createdAtRecovery = created(sent);
			await().atMost(TIMEOUT).until(() -> created(sent) >= createdAtRecovery + CREATED_BEFORE_AND_AFTER);
			stop.set(true);
			for (Future<?> thread : load) {
				thread.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
			}
			System.out.printf("%s outage: %d backends terminated%n", this.mode, terminated);
			return new ArrayList<>(sent);
		}
		finally {
			threads.shutdownNow();
		}
	}

	/**
	 * Terminate every connection again and again, first while the database accepts new ones,
	 * then while it refuses them, as a restarting database would.
	 * @return how many backends were terminated
	 */
	/**
	 * Flap the connections, then keep the database down for at least {@link #DOWN} and until a
	 * request has failed in it (at most {@link #TIMEOUT}): on a loaded machine a short outage may
	 * pass between two requests, and then the scenario would not have happened.
	 */
	private int outage(Queue<Sent> sent) throws SQLException {
		int terminated = 0;
		long flapping = System.nanoTime() + FLAPPING.toNanos();
		while (System.nanoTime() < flapping) {
			terminated += this.database.terminateConnections();
		}
		try (Connection admin = DriverManager.getConnection(adminUrl(), this.database.username(),
				this.database.password()); Statement statement = admin.createStatement()) {
			statement.execute("ALTER DATABASE " + this.database.name() + " ALLOW_CONNECTIONS false");
			try {
				long down = System.nanoTime() + DOWN.toNanos();
				long longest = System.nanoTime() + TIMEOUT.toNanos();
				while (System.nanoTime() < down
						|| (System.nanoTime() < longest && sent.stream().noneMatch((s) -> s.status() == 503))) {
					terminated += this.database.terminateConnections();
				}
			}
			finally {
				statement.execute("ALTER DATABASE " + this.database.name() + " ALLOW_CONNECTIONS true");
			}
		}
		return terminated;
	}

	private void assertCreatedOrCleanProblem(Sent sent) {
		assertThat(sent.took()).as("time to answer").isLessThan(NO_HANG);
		assertThat(sent.status()).as(Http.text(sent.response())).isIn(201, 503);
		assertThat(sent.response().headers().firstValue("Idempotent-Replayed")).isEmpty();
		if (sent.status() == 201) {
			Map<String, Object> record = this.db.recordOf(sent.key());
			assertThat(record).containsEntry("status", "COMPLETED");
			assertThat((byte[]) record.get("response_body")).isEqualTo(sent.response().body());
		}
		else {
			assertThat(sent.response().headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(sent.response().headers().firstValue("Retry-After")).isPresent();
			assertThat(json(sent.response()).get("type").asString()).isIn(STORE_UNAVAILABLE, DATABASE_UNAVAILABLE);
		}
	}

	/**
	 * No record stores a failure, and every completed record has its settled payment and its
	 * charge.
	 */
	private void assertNothingStoredWithoutItsEffects() {
		assertThat(this.db.count("SELECT count(*) FROM idempotency_record WHERE response_status <> 201")).isZero();
		assertThat(this.db.count("SELECT count(*) FROM idempotency_record r WHERE r.status = 'COMPLETED' AND NOT "
				+ "EXISTS (SELECT 1 FROM payment p JOIN gateway_charge c ON c.id = p.gateway_charge_id WHERE "
				+ "p.tenant_id = r.tenant_id AND p.idempotency_key = r.idempotency_key AND p.status = 'SUCCEEDED' "
				+ "AND c.idempotency_key = 'default:create-payment:' || r.idempotency_key)")).isZero();
	}

	/**
	 * Retry a key until it is no longer answered with an in-progress conflict: a replay of what
	 * was created, or a new execution of what failed.
	 * @return how many conflicts came first
	 */
	private int retry(Sent sent) {
		Http http = this.app.http();
		AtomicInteger conflicts = new AtomicInteger();
		HttpResponse<byte[]> retry = await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> {
			HttpResponse<byte[]> answer = http.post("/payments").key(sent.key()).json(sent.body()).send();
			if (answer.statusCode() == 409) {
				conflicts.incrementAndGet();
			}
			return answer;
		}, (answer) -> answer.statusCode() != 409);
		assertThat(retry.statusCode()).isEqualTo(201);
		if (sent.status() == 201) {
			assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(retry.body()).isEqualTo(sent.response().body());
		}
		assertThat(this.db.paymentOf(sent.key())).containsEntry("id", json(retry).get("id").asLong());
		return conflicts.get();
	}

	private void report(List<Sent> sent) {
		Map<Integer, Long> statuses = sent.stream()
			.collect(Collectors.groupingBy(Sent::status, Collectors.counting()));
		Map<String, Long> problems = sent.stream()
			.filter((s) -> s.status() == 503)
			.collect(Collectors.groupingBy((s) -> json(s.response()).get("type").asString(), Collectors.counting()));
		Map<String, Long> failedRecords = sent.stream()
			.filter((s) -> s.status() == 503)
			.map((s) -> this.db.recordOf(s.key()))
			.collect(Collectors.groupingBy((record) -> (record != null) ? (String) record.get("status") : "none",
					Collectors.counting()));
		System.out.printf("%s outage: %d requests, statuses %s, problems %s, records of the failed ones %s; "
				+ "slowest answer %d ms%n", this.mode, sent.size(), statuses, problems, failedRecords,
				sent.stream().mapToLong((s) -> s.took().toMillis()).max().orElse(0));
	}

	private static long created(Queue<Sent> sent) {
		return sent.stream().filter((s) -> s.status() == 201).count();
	}

	private String adminUrl() {
		String url = this.database.url();
		return url.substring(0, url.lastIndexOf('/') + 1) + "postgres";
	}

	/**
	 * A request sent under load and its answer.
	 *
	 * @param key its idempotency key
	 * @param body its body
	 * @param response the answer
	 * @param took how long the answer took
	 */
	private record Sent(String key, String body, HttpResponse<byte[]> response, Duration took) {

		int status() {
			return this.response.statusCode();
		}

	}

}
