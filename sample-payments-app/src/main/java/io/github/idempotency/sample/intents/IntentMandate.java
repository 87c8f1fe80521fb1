package io.github.idempotency.sample.intents;

import java.time.Instant;
import java.util.List;

/**
 * A user's mandate for an agent to buy what an intent describes, within its limits, until it
 * expires.
 *
 * @param id the mandate id, such as {@code im_3f2a...}
 * @param userId the user
 * @param description what the agent may buy
 * @param merchants the merchants the agent may buy from, sorted; empty for any
 * @param skus the products the agent may buy, sorted; empty for any
 * @param maxAmount the most the agent may spend, in minor units
 * @param currency the ISO 4217 code of {@code maxAmount}
 * @param requiresRefundability whether only refundable purchases are allowed
 * @param userCartConfirmationRequired whether the user confirms each cart
 * @param intentHash the SHA-256 of the intent's canonical form, see {@link IntentHasher}
 * @param createdAt when the mandate was given
 * @param expiresAt when the mandate stops allowing purchases
 */
public record IntentMandate(String id, String userId, String description, List<String> merchants, List<String> skus,
		long maxAmount, String currency, boolean requiresRefundability, boolean userCartConfirmationRequired,
		String intentHash, Instant createdAt, Instant expiresAt) {

}
