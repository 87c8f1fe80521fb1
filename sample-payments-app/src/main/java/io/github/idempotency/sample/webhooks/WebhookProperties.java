package io.github.idempotency.sample.webhooks;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the webhooks the sample receives.
 *
 * @param secret the key the shop signs every webhook body with, HMAC-SHA256
 * @param gatewaySecret the key the payment gateway signs every webhook body with, HMAC-SHA256
 */
@ConfigurationProperties("sample.webhooks")
public record WebhookProperties(String secret, String gatewaySecret) {

	public WebhookProperties {
		if (secret == null || secret.isEmpty()) {
			throw new IllegalArgumentException("sample.webhooks.secret must be set");
		}
		if (gatewaySecret == null || gatewaySecret.isEmpty()) {
			throw new IllegalArgumentException("sample.webhooks.gateway-secret must be set");
		}
	}

}
