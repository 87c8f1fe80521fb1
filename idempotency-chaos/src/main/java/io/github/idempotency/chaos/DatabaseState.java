package io.github.idempotency.chaos;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What the database and the gateway hold after a soak: the sample's payments and gateway charges,
 * the idempotency records of its payment operations, and the calls the external gateway got.
 *
 * @param payments every row of {@code payment}
 * @param charges every charge: those of the external gateway ({@link GatewayLog}), or the rows of
 * {@code gateway_charge} when the sample charged in its own process
 * @param records every idempotency record of {@code create-payment} and
 * {@code create-payment-async}
 * @param gatewayCalls every call of the external gateway, empty when the sample charged in its own
 * process
 */
record DatabaseState(List<Payment> payments, List<Charge> charges, List<IdempotencyRecord> records,
		List<GatewayLog.Call> gatewayCalls) {

	DatabaseState(List<Payment> payments, List<Charge> charges, List<IdempotencyRecord> records) {
		this(payments, charges, records, List.of());
	}

	/**
	 * A payment row.
	 *
	 * @param key its idempotency key
	 * @param id its id
	 * @param status its status
	 * @param chargeId the gateway charge it was settled with, or {@code null}
	 */
	public record Payment(String key, long id, String status, @Nullable String chargeId) {

	}

	/**
	 * A gateway charge row.
	 *
	 * @param key the client's idempotency key it was made for (the gateway's key without its
	 * {@code tenant:operation:} scope)
	 * @param id its id
	 * @param status its status
	 * @param attempts how often the gateway was asked for it
	 */
	public record Charge(String key, String id, String status, int attempts) {

	}

	/**
	 * An idempotency record.
	 *
	 * @param key its idempotency key
	 * @param status {@code IN_PROGRESS} or {@code COMPLETED}
	 * @param lockedUntil the end of its lease as the store wrote it, or {@code null}
	 * @param leaseOver whether its lease had ended when the state was read, by the store's clock
	 * @param responseStatus the stored status, or {@code null}
	 * @param bodyHash the SHA-256 of the stored body, or {@code null}
	 */
	public record IdempotencyRecord(String key, String status, @Nullable String lockedUntil, boolean leaseOver,
			@Nullable Integer responseStatus, @Nullable String bodyHash) {

	}

}
