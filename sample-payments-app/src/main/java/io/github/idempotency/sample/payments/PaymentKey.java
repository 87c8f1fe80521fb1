package io.github.idempotency.sample.payments;

import java.util.UUID;

import org.springframework.util.StringUtils;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.IdempotencyKeys;

/**
 * The idempotency key a payment is recorded under, and the one forwarded to the gateway.
 *
 * @param tenant the tenant the payment belongs to
 * @param key the idempotency key, unique within the tenant
 * @param gatewayKey the key forwarded to the gateway, unique across tenants
 */
public record PaymentKey(String tenant, String key, String gatewayKey) {

	static final String DEFAULT_TENANT = "default";

	/**
	 * Return the key of the current {@code @Idempotent} call or, when idempotency is disabled, one
	 * made from the raw headers, or a random one when there is no key header.
	 * @param tenantHeader the {@code X-Tenant-Id} header, or {@code null}
	 * @param keyHeader the {@code Idempotency-Key} header, or {@code null}
	 * @return the key
	 */
	static PaymentKey resolve(String tenantHeader, String keyHeader) {
		IdempotencyContext context = IdempotencyContext.current();
		if (context != null) {
			return new PaymentKey(context.key().tenant(), context.key().key(), context.scopedKey());
		}
		String tenant = StringUtils.hasLength(tenantHeader) ? IdempotencyKeys.fromDerivedValue(tenantHeader)
				: DEFAULT_TENANT;
		String key = StringUtils.hasLength(keyHeader) ? IdempotencyKeys.fromDerivedValue(keyHeader)
				: UUID.randomUUID().toString();
		return new PaymentKey(tenant, key, tenant + ":" + PaymentController.CREATE_OPERATION + ":" + key);
	}

}
