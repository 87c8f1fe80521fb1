package io.github.idempotency.docs.snippets.crash;

// tag::check-lease[]
import io.github.idempotency.IdempotencyContext;
// end::check-lease[]

/**
 * Charges only while the running call still holds its key.
 */
class LeaseCheckingCharges {

	private final Gateway gateway;

	LeaseCheckingCharges(Gateway gateway) {
		this.gateway = gateway;
	}

	void charge(long amount) {
		Gateway.ChargeRequest request = new Gateway.ChargeRequest(IdempotencyContext.require().scopedKey(), amount);
		// tag::check-lease[]
		IdempotencyContext.require().checkLease(); // throws an IdempotencyException (409 lease-lost) if not
		gateway.charge(request);
		// end::check-lease[]
	}

}
