package io.github.idempotency.actuate;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.Outcome;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.web.servlet.WebTestApplication;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Micrometer meters of SPEC 8, read after driving real HTTP requests through every outcome on
 * real PostgreSQL: registered up front, counted per operation and outcome, and bounded.
 */
@DirtiesContext
@SpringBootTest(classes = { WebTestApplication.class, MetricsWebTests.ReceiptsConfiguration.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "idempotency.operations.configured-only.ttl=1h")
class MetricsWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webmetrics");

	static final String EFFECTS = "POST /effects";

	/**
	 * Operations no test of this class calls, so that their meters can only have been registered up
	 * front.
	 */
	static final Set<String> NEVER_CALLED = Set.of("waiting", "refunds", "events", "optional", "sent-errors",
			"atomic", "reports", "summaries", "configured-only");

	static final Set<String> OPERATIONS = Stream.concat(NEVER_CALLED.stream(), Stream.of(EFFECTS, "Receipts.print"))
		.collect(Collectors.toSet());

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
		registry.add("spring.flyway.locations", () -> "classpath:db/webtest");
		registry.add("spring.datasource.hikari.maximum-pool-size", () -> "4");
	}

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry registry;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	WebTestApplication.Gate gate;

	@Autowired
	Receipts receipts;

	Http http;

	@BeforeEach
	void setUp() {
		this.http = new Http(this.port);
	}

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void everyMeterOfEveryConfiguredAndAnnotatedOperationIsRegisteredUpFront() {
		for (String operation : OPERATIONS) {
			for (Outcome outcome : Outcome.values()) {
				assertThat(this.registry.find("idempotency.requests")
					.tags("operation", operation, "outcome", outcome.tag())
					.counter()).as(operation + " " + outcome).isNotNull();
			}
			assertThat(this.registry.find("idempotency.executions").tag("operation", operation).timer()).isNotNull();
			assertThat(this.registry.find("idempotency.executions.active").tag("operation", operation).gauge())
				.isNotNull();
			assertThat(this.registry.find("idempotency.takeovers").tag("operation", operation).counter()).isNotNull();
		}
		for (String neverCalled : NEVER_CALLED) {
			assertThat(new Counts(neverCalled).requests).containsOnly(0.0);
		}
		assertThat(this.registry.find("idempotency.purge.deleted").tag("reason", "expired").counter()).isNotNull();
		assertThat(this.registry.find("idempotency.purge.deleted").tag("reason", "stuck").counter()).isNotNull();
		assertThat(this.registry.find("idempotency.purge.archived").counter()).isNotNull();
		assertThat(this.registry.find("idempotency.purge.runs").timer()).isNotNull();
		assertThat(operationTags()).isEqualTo(new TreeSet<>(OPERATIONS));
	}

	@Test
	void countsEveryOutcomeOfRealRequestsByOperation() throws Exception {
		Counts before = new Counts(EFFECTS);
		String key = unique();
		assertThat(post(key, key).statusCode()).isEqualTo(201);
		assertThat(post(key, key).statusCode()).isEqualTo(201);
		assertThat(post(key, "changed").statusCode()).isEqualTo(422);
		assertThat(this.http.post("/effects").json(json(key)).send().statusCode()).isEqualTo(400);
		String held = unique();
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture.supplyAsync(() -> post(held, held));
		assertThat(this.gate.awaitEntered()).isTrue();
		assertThat(gauge(EFFECTS)).isEqualTo(1);
		assertThat(post(held, held).statusCode()).isEqualTo(409);
		this.gate.open();
		assertThat(first.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
		this.gate.failNext(1);
		assertThat(post(unique(), "fails").statusCode()).isEqualTo(503);
		String stale = unique();
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> late = CompletableFuture.supplyAsync(() -> post(stale, stale));
		assertThat(this.gate.awaitEntered()).isTrue();
		this.jdbc.update("UPDATE idempotency_record SET locked_until = now() - interval '1 second' "
				+ "WHERE idempotency_key = ?", stale);
		CompletableFuture<HttpResponse<byte[]>> retry = CompletableFuture.supplyAsync(() -> post(stale, stale));
		assertThat(this.gate.awaitEntered(2)).isTrue();
		assertThat(gauge(EFFECTS)).isEqualTo(2);
		this.gate.open();
		assertThat(late.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(409);
		assertThat(retry.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
		Counts after = new Counts(EFFECTS);
		assertThat(after.minus(before, Outcome.EXECUTED)).isEqualTo(3);
		assertThat(after.minus(before, Outcome.REPLAYED)).isEqualTo(1);
		assertThat(after.minus(before, Outcome.MISMATCH)).isEqualTo(1);
		assertThat(after.minus(before, Outcome.MISSING_KEY)).isEqualTo(1);
		assertThat(after.minus(before, Outcome.CONFLICT)).isEqualTo(1);
		assertThat(after.minus(before, Outcome.RELEASED)).isEqualTo(1);
		assertThat(after.minus(before, Outcome.TAKEN_OVER)).isEqualTo(1);
		assertThat(after.takeovers - before.takeovers).isEqualTo(1);
		assertThat(after.executions - before.executions).isEqualTo(5);
		assertThat(gauge(EFFECTS)).isZero();
	}

	@Test
	void countsCallsOfAnnotatedBeanMethodsUnderTheirDerivedName() {
		Counts before = new Counts("Receipts.print");
		String receipt = unique();
		String printed = this.receipts.print(receipt);
		assertThat(this.receipts.print(receipt)).isEqualTo(printed);
		Counts after = new Counts("Receipts.print");
		assertThat(after.minus(before, Outcome.EXECUTED)).isEqualTo(1);
		assertThat(after.minus(before, Outcome.REPLAYED)).isEqualTo(1);
		assertThat(this.receipts.printed()).isEqualTo(1);
	}

	@Test
	void tenThousandDistinctKeysCreateNoNewMeters() throws Exception {
		// Micrometer creates the timer of the idempotency.request observation on its first use,
		// as it does http.server.requests; its tags are as bounded as those registered up front.
		post(unique(), "first").statusCode();
		Set<String> metersBefore = meterIds();
		Counts before = new Counts(EFFECTS);
		int requests = 10_000;
		AtomicInteger created = new AtomicInteger();
		ExecutorService clients = Executors.newFixedThreadPool(8);
		try {
			List<CompletableFuture<Void>> sent = new ArrayList<>();
			for (int client = 0; client < 8; client++) {
				sent.add(CompletableFuture.runAsync(() -> {
					for (int i = 0; i < requests / 8; i++) {
						String key = unique();
						if (post(key, key).statusCode() == 201) {
							created.incrementAndGet();
						}
					}
				}, clients));
			}
			CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
		}
		finally {
			clients.shutdownNow();
		}
		assertThat(created).hasValue(requests);
		assertThat(new Counts(EFFECTS).minus(before, Outcome.EXECUTED)).isEqualTo(requests);
		assertThat(meterIds()).isEqualTo(metersBefore);
		assertThat(operationTags()).isEqualTo(new TreeSet<>(OPERATIONS));
	}

	private HttpResponse<byte[]> post(String key, String value) {
		return this.http.post("/effects").key(key).json(json(value)).send();
	}

	private double gauge(String operation) {
		return this.registry.get("idempotency.executions.active").tag("operation", operation).gauge().value();
	}

	private Set<String> meterIds() {
		Set<String> ids = new TreeSet<>();
		for (Meter meter : this.registry.getMeters()) {
			if (meter.getId().getName().startsWith("idempotency.")) {
				ids.add(meter.getId().toString());
			}
		}
		return ids;
	}

	private Set<String> operationTags() {
		Set<String> operations = new TreeSet<>();
		for (Meter meter : this.registry.getMeters()) {
			String operation = meter.getId().getTag("operation");
			if (meter.getId().getName().startsWith("idempotency.") && operation != null) {
				operations.add(operation);
			}
		}
		return operations;
	}

	private static String unique() {
		return UUID.randomUUID().toString();
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

	/**
	 * The counts of one operation's meters at one moment.
	 */
	private final class Counts {

		final double[] requests = new double[Outcome.values().length];

		final double takeovers;

		final long executions;

		Counts(String operation) {
			for (Outcome outcome : Outcome.values()) {
				this.requests[outcome.ordinal()] = MetricsWebTests.this.registry.get("idempotency.requests")
					.tags("operation", operation, "outcome", outcome.tag())
					.counter()
					.count();
			}
			this.takeovers = MetricsWebTests.this.registry.get("idempotency.takeovers")
				.tag("operation", operation)
				.counter()
				.count();
			Timer timer = MetricsWebTests.this.registry.get("idempotency.executions")
				.tag("operation", operation)
				.timer();
			this.executions = timer.count();
		}

		long minus(Counts before, Outcome outcome) {
			return (long) (this.requests[outcome.ordinal()] - before.requests[outcome.ordinal()]);
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ReceiptsConfiguration {

		@Bean
		Receipts receipts() {
			return new Receipts();
		}

	}

	/**
	 * A bean, outside Spring MVC, with an {@code @Idempotent} method named by its class and method.
	 */
	static class Receipts {

		private final AtomicInteger printed = new AtomicInteger();

		@Idempotent(key = "#receiptId")
		public String print(String receiptId) {
			return "receipt " + receiptId + " #" + this.printed.incrementAndGet();
		}

		public int printed() {
			return this.printed.get();
		}

	}

}
