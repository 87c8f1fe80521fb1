package io.github.idempotency.engine;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.MDC;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.messaging.Message;
import org.springframework.messaging.handler.annotation.Header;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;

/**
 * A non-web application with an {@code @Idempotent} service method, as a message listener would
 * call it, that records each execution in {@code effect}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class LedgerTestApplication {

	@Bean
	LedgerService ledgerService(JdbcTemplate jdbc) {
		return new LedgerService(jdbc);
	}

	record PaymentEvent(String id, long amount) {
	}

	record LedgerEntry(long entryId, String eventId, long amount) {
	}

	static class InsufficientFundsException extends RuntimeException {

		InsufficientFundsException(String message) {
			super(message);
		}

	}

	static class LedgerService {

		private final JdbcTemplate jdbc;

		final AtomicInteger transientFailures = new AtomicInteger();

		volatile Map<String, String> mdcInside = Map.of();

		volatile CountDownLatch entered = new CountDownLatch(0);

		volatile CountDownLatch proceed = new CountDownLatch(0);

		LedgerService(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@Idempotent(operation = "ledger-post", key = "'ledger:' + #event.id()")
		public LedgerEntry post(PaymentEvent event) throws InterruptedException {
			this.entered.countDown();
			this.proceed.await(30, TimeUnit.SECONDS);
			if (this.transientFailures.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
				throw new QueryTimeoutException("downstream timed out");
			}
			if (event.amount() < 0) {
				throw new InsufficientFundsException("cannot post " + event.amount());
			}
			return new LedgerEntry(record("ledger-post", event.id()), event.id(), event.amount());
		}

		@Idempotent(operation = "ledger-atomic", key = "#event.id()", mode = IdempotencyMode.ATOMIC)
		public LedgerEntry postAtomically(PaymentEvent event) {
			long id = record("ledger-atomic", event.id());
			if (this.transientFailures.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
				throw new QueryTimeoutException("failed after writing");
			}
			return new LedgerEntry(id, event.id(), event.amount());
		}

		@Idempotent(operation = "ledger-logged", key = "#event.id()")
		public long postLogged(PaymentEvent event) {
			this.mdcInside = MDC.getCopyOfContextMap();
			return record("ledger-logged", event.id());
		}

		@Idempotent(operation = "ledger-optional", key = "#event.id()", required = false)
		public long postOptionally(PaymentEvent event) {
			return record("ledger-optional", String.valueOf(event.id()));
		}

		@Idempotent(operation = "ledger-message", key = "'message:' + #message.payload.id()")
		public long postMessage(Message<PaymentEvent> message, @Header("attempt") int attempt) {
			return record("ledger-message", message.getPayload().id());
		}

		@Idempotent(operation = "ledger-traced", key = "'traced:' + #event.id()", fingerprint = "#event")
		public long postTraced(PaymentEvent event, String traceId) {
			return record("ledger-traced", event.id());
		}

		private long record(String endpoint, String detail) {
			return this.jdbc.queryForObject("INSERT INTO effect (endpoint, detail) VALUES (?, ?) RETURNING id",
					Long.class, endpoint, detail);
		}

	}

}
