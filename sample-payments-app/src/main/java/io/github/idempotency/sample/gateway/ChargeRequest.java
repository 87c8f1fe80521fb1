package io.github.idempotency.sample.gateway;

/**
 * A request to charge a customer, identified by the idempotency key the gateway deduplicates on.
 *
 * @param idempotencyKey the key forwarded to the gateway, unique across tenants
 * @param customerId the customer to charge
 * @param amount the amount in minor units
 * @param currency the ISO 4217 currency code
 */
public record ChargeRequest(String idempotencyKey, String customerId, long amount, String currency) {

}
