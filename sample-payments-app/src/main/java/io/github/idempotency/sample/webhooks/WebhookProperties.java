package io.github.idempotency.sample.webhooks;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the shop's webhooks.
 *
 * @param secret the key the shop signs every webhook body with, HMAC-SHA256
 */
@ConfigurationProperties("sample.webhooks")
public record WebhookProperties(String secret) {

	public WebhookProperties {
		if (secret == null || secret.isEmpty()) {
			throw new IllegalArgumentException("sample.webhooks.secret must be set");
		}
	}

}
