package io.github.idempotency.docs.snippets.beans;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

// tag::ledger[]
import org.springframework.stereotype.Service;

import io.github.idempotency.annotation.Idempotent;

@Service
public class Ledger {

	@Idempotent(operation = "ledger-post", key = "'ledger:' + #event.paymentId()")
	public LedgerEntry post(PaymentSucceeded event) {
		this.runs.incrementAndGet();
		return new LedgerEntry(UUID.randomUUID().toString(), event.paymentId(), event.amount());
	}

	private final AtomicInteger runs = new AtomicInteger();

	/**
	 * Return how many times {@link #post} ran, replays not counted.
	 * @return the number of runs
	 */
	public int runs() {
		return this.runs.get();
	}

}
// end::ledger[]
