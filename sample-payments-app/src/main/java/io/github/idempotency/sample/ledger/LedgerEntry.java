package io.github.idempotency.sample.ledger;

import java.time.Instant;

/**
 * A posting of a succeeded payment to the ledger.
 *
 * @param id the entry id
 * @param paymentId the payment posted
 * @param customerId the customer charged
 * @param amount the amount in minor units
 * @param currency the ISO 4217 currency code
 * @param gatewayChargeId the gateway's charge id
 * @param postedAt when the entry was posted
 */
public record LedgerEntry(long id, long paymentId, String customerId, long amount, String currency,
		String gatewayChargeId, Instant postedAt) {

}
