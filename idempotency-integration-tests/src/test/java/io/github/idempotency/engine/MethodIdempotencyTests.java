package io.github.idempotency.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.IdempotencyKeyInProgressException;
import io.github.idempotency.IdempotencyKeyMismatchException;
import io.github.idempotency.IdempotentOperationFailedException;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.MissingIdempotencyKeyException;
import io.github.idempotency.engine.LedgerTestApplication.LedgerEntry;
import io.github.idempotency.engine.LedgerTestApplication.LedgerService;
import io.github.idempotency.engine.LedgerTestApplication.PaymentEvent;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @Idempotent} on a plain bean method, as a message listener uses it, on real PostgreSQL.
 */
@SpringBootTest(classes = LedgerTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.flyway.locations=classpath:db/webtest",
				"idempotency.classification.final-exceptions="
						+ "io.github.idempotency.engine.LedgerTestApplication.InsufficientFundsException" })
class MethodIdempotencyTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("method");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
	}

	@Autowired
	LedgerService ledger;

	@Autowired
	JdbcTemplate jdbc;

	@AfterEach
	void reset() {
		target().proceed.countDown();
		target().transientFailures.set(0);
	}

	@Test
	void duplicateCallReturnsTheStoredValueWithoutRunningTheMethod() throws Exception {
		PaymentEvent event = new PaymentEvent(unique(), 2999);
		LedgerEntry first = this.ledger.post(event);
		LedgerEntry redelivered = this.ledger.post(event);
		assertThat(redelivered).isEqualTo(first);
		assertThat(effects("ledger-post", event.id())).isEqualTo(1);
	}

	@Test
	void concurrentRedeliveriesRunTheMethodOnce() throws Exception {
		PaymentEvent event = new PaymentEvent(unique(), 100);
		int threads = 16;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CyclicBarrier start = new CyclicBarrier(threads);
		try {
			List<Future<Object>> calls = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				calls.add(pool.submit(() -> {
					start.await();
					try {
						return this.ledger.post(event);
					}
					catch (IdempotencyKeyInProgressException ex) {
						return ex;
					}
				}));
			}
			List<LedgerEntry> entries = new ArrayList<>();
			for (Future<Object> call : calls) {
				Object outcome = call.get();
				if (outcome instanceof LedgerEntry entry) {
					entries.add(entry);
				}
			}
			assertThat(entries).isNotEmpty().allSatisfy((entry) -> assertThat(entry).isEqualTo(entries.get(0)));
			assertThat(effects("ledger-post", event.id())).isEqualTo(1);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void duplicateOfACallInProgressThrowsSoThatTheBrokerRedeliversLater() throws Exception {
		PaymentEvent event = new PaymentEvent(unique(), 5);
		target().entered = new CountDownLatch(1);
		target().proceed = new CountDownLatch(1);
		CompletableFuture<LedgerEntry> first = CompletableFuture.supplyAsync(() -> call(event));
		assertThat(target().entered.await(30, TimeUnit.SECONDS)).isTrue();
		assertThatExceptionOfType(IdempotencyKeyInProgressException.class).isThrownBy(() -> this.ledger.post(event))
			.satisfies((ex) -> assertThat(ex.getRetryAfter()).isPositive());
		target().proceed.countDown();
		assertThat(first.get().eventId()).isEqualTo(event.id());
		assertThat(effects("ledger-post", event.id())).isEqualTo(1);
	}

	@Test
	void transientExceptionReleasesTheKeySoThatARedeliveryRunsAgain() throws Exception {
		PaymentEvent event = new PaymentEvent(unique(), 7);
		target().transientFailures.set(1);
		assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> this.ledger.post(event));
		assertThat(records("ledger:" + event.id())).isZero();
		LedgerEntry entry = this.ledger.post(event);
		assertThat(entry.amount()).isEqualTo(7);
		assertThat(effects("ledger-post", event.id())).isEqualTo(1);
	}

	@Test
	void finalExceptionIsStoredAndReplayedWithoutRunningTheMethodAgain() throws Exception {
		PaymentEvent event = new PaymentEvent(unique(), -1);
		assertThatExceptionOfType(LedgerTestApplication.InsufficientFundsException.class)
			.isThrownBy(() -> this.ledger.post(event));
		assertThatExceptionOfType(IdempotentOperationFailedException.class).isThrownBy(() -> this.ledger.post(event))
			.satisfies((ex) -> assertThat(ex.getExceptionType())
				.isEqualTo(LedgerTestApplication.InsufficientFundsException.class.getName()));
		assertThat(records("ledger:" + event.id())).isEqualTo(1);
	}

	@Test
	void sameKeyWithDifferentArgumentsIsRefused() throws Exception {
		String id = unique();
		this.ledger.post(new PaymentEvent(id, 10));
		assertThatExceptionOfType(IdempotencyKeyMismatchException.class)
			.isThrownBy(() -> this.ledger.post(new PaymentEvent(id, 11)));
		assertThat(effects("ledger-post", id)).isEqualTo(1);
	}

	@Test
	void aMessageRedeliveredWithOtherHeadersIsTheSameCallAndAnotherPayloadIsNot() {
		String id = unique();
		long first = this.ledger.postMessage(message(new PaymentEvent(id, 10), 1), 1);
		assertThat(this.ledger.postMessage(message(new PaymentEvent(id, 10), 2), 2)).isEqualTo(first);
		assertThatExceptionOfType(IdempotencyKeyMismatchException.class)
			.isThrownBy(() -> this.ledger.postMessage(message(new PaymentEvent(id, 11), 3), 3));
		assertThat(effects("ledger-message", id)).isEqualTo(1);
	}

	@Test
	void aFingerprintExpressionChoosesWhatMakesTwoCallsTheSame() {
		String id = unique();
		long first = this.ledger.postTraced(new PaymentEvent(id, 10), "trace-1");
		assertThat(this.ledger.postTraced(new PaymentEvent(id, 10), "trace-2")).isEqualTo(first);
		assertThatExceptionOfType(IdempotencyKeyMismatchException.class)
			.isThrownBy(() -> this.ledger.postTraced(new PaymentEvent(id, 11), "trace-1"));
		assertThat(effects("ledger-traced", id)).isEqualTo(1);
	}

	@Test
	void atomicMethodCommitsItsWritesWithTheStoredResult() {
		PaymentEvent event = new PaymentEvent(unique(), 42);
		LedgerEntry first = this.ledger.postAtomically(event);
		assertThat(this.ledger.postAtomically(event)).isEqualTo(first);
		assertThat(effects("ledger-atomic", event.id())).isEqualTo(1);
	}

	@Test
	void atomicMethodRollsBackItsWritesWithTheClaimOnATransientFailure() {
		PaymentEvent event = new PaymentEvent(unique(), 42);
		target().transientFailures.set(1);
		assertThatExceptionOfType(QueryTimeoutException.class).isThrownBy(() -> this.ledger.postAtomically(event));
		assertThat(effects("ledger-atomic", event.id())).isZero();
		assertThat(records(event.id())).isZero();
		this.ledger.postAtomically(event);
		assertThat(effects("ledger-atomic", event.id())).isEqualTo(1);
	}

	@Test
	void missingDerivedKeyIsRefusedUnlessTheKeyIsOptional() {
		assertThat(AopUtils.isAopProxy(this.ledger)).isTrue();
		assertThatExceptionOfType(MissingIdempotencyKeyException.class)
			.isThrownBy(() -> this.ledger.postAtomically(new PaymentEvent(null, 1)));
		this.ledger.postOptionally(new PaymentEvent(null, 1));
		this.ledger.postOptionally(new PaymentEvent(null, 1));
		assertThat(effects("ledger-optional", "null")).isEqualTo(2);
	}

	@Test
	void logsTheOperationAndKeyHashDuringTheCallAndRestoresTheCallersEntries() {
		String id = unique();
		MDC.put(IdempotencyMdc.OPERATION, "enclosing-request");
		try {
			this.ledger.postLogged(new PaymentEvent(id, 1));
			assertThat(target().mdcInside).containsEntry(IdempotencyMdc.OPERATION, "ledger-logged")
				.containsEntry(IdempotencyMdc.KEY_HASH, KeyHashes.shortHash(id))
				.doesNotContainValue(id);
			assertThat(MDC.get(IdempotencyMdc.OPERATION)).isEqualTo("enclosing-request");
			assertThat(MDC.get(IdempotencyMdc.KEY_HASH)).isNull();
		}
		finally {
			MDC.clear();
		}
	}

	private static Message<PaymentEvent> message(PaymentEvent event, int attempt) {
		return MessageBuilder.withPayload(event).setHeader("attempt", attempt).build();
	}

	private LedgerEntry call(PaymentEvent event) {
		try {
			return this.ledger.post(event);
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private LedgerService target() {
		try {
			return (LedgerService) ((Advised) this.ledger).getTargetSource()
				.getTarget();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private long effects(String endpoint, String detail) {
		return this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = ? AND detail = ?", Long.class,
				endpoint, detail);
	}

	private long records(String key) {
		return this.jdbc.queryForObject(
				"SELECT count(*) FROM idempotency_record WHERE idempotency_key = ? AND status <> 'RELEASED'",
				Long.class, key);
	}

	private static String unique() {
		return UUID.randomUUID().toString();
	}


}
