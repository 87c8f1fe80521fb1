package io.github.idempotency.chaos;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What the database holds after a soak: the sample's payments and gateway charges, and the
 * idempotency records of its payment operation.
 *
 * @param payments every row of {@code payment}
 * @param charges every row of {@code gateway_charge}
 * @param records every idempotency record of {@code create-payment}
 */
record DatabaseState(List<Payment> payments, List<Charge> charges, List<IdempotencyRecord> records) {

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
