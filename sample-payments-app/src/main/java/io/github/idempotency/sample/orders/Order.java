package io.github.idempotency.sample.orders;

import java.time.Instant;

/**
 * An order, placed once per cart mandate.
 *
 * @param id the order id
 * @param cartMandateId the mandate the order was placed from
 * @param customerId the customer
 * @param currency the ISO 4217 code of the total
 * @param total the mandate's total, in minor units
 * @param createdAt when the order was placed
 */
public record Order(long id, String cartMandateId, String customerId, String currency, long total,
		Instant createdAt) {

}
