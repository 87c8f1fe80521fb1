package io.github.idempotency.docs.snippets.references;

// tag::reference[]
import io.github.idempotency.IdempotencyContext;
// end::reference[]

/**
 * Attaches the gateway's transaction id to the running call's key.
 */
class GatewayReferences {

	private final Gateway gateway;

	GatewayReferences(Gateway gateway) {
		this.gateway = gateway;
	}

	GatewayCharge charge(ChargeRequest request) {
		// tag::reference[]
		GatewayCharge charge = gateway.charge(request);
		IdempotencyContext.require().reference("gateway_transaction", charge.transactionId());
		// end::reference[]
		return charge;
	}

	interface Gateway {

		GatewayCharge charge(ChargeRequest request);

	}

	record ChargeRequest(String idempotencyKey, long amount) {
	}

	record GatewayCharge(String transactionId) {
	}

}
