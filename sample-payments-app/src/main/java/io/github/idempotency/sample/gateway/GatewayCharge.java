package io.github.idempotency.sample.gateway;

/**
 * A charge as the gateway recorded it.
 *
 * @param id the gateway's charge id
 * @param status the outcome
 * @param attempts how many calls the gateway received for this charge's idempotency key
 */
public record GatewayCharge(String id, ChargeStatus status, int attempts) {

	public boolean isDeclined() {
		return this.status == ChargeStatus.DECLINED;
	}

}
