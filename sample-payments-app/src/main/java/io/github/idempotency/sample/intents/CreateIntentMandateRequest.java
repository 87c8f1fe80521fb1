package io.github.idempotency.sample.intents;

import java.time.Instant;
import java.util.List;

/**
 * The body of {@code POST /intent-mandates}; apart from the user, which the idempotency key needs,
 * it is validated after the key is claimed, so that a rejection is stored and replayed.
 *
 * @param userId the user who gives the mandate
 * @param description what the agent may buy, in the user's words
 * @param merchants the merchants the agent may buy from, in any order; none means any merchant
 * @param skus the products the agent may buy, in any order; none means any product
 * @param maxAmount the most the agent may spend, in minor units of {@code currency}
 * @param currency the ISO 4217 code of {@code maxAmount}
 * @param requiresRefundability whether only refundable purchases are allowed; {@code false} if
 * absent
 * @param userCartConfirmationRequired whether the user confirms each cart before it is bought;
 * {@code true} if absent
 * @param expiresAt when the mandate stops allowing purchases
 */
public record CreateIntentMandateRequest(String userId, String description, List<String> merchants,
		List<String> skus, Long maxAmount, String currency, Boolean requiresRefundability,
		Boolean userCartConfirmationRequired, Instant expiresAt) {

	/**
	 * Return whether only refundable purchases are allowed, with its default.
	 * @return whether refundability is required
	 */
	boolean refundabilityRequired() {
		return Boolean.TRUE.equals(this.requiresRefundability);
	}

	/**
	 * Return whether the user confirms each cart, with its default.
	 * @return whether a cart confirmation is required
	 */
	boolean cartConfirmationRequired() {
		return !Boolean.FALSE.equals(this.userCartConfirmationRequired);
	}

}
