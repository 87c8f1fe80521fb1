package io.github.idempotency.sample.webhooks;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.web.servlet.IdempotencyWebMvcAutoConfiguration;

/**
 * Puts the signature checks of shop and gateway webhooks in front of the starter's idempotency
 * filter.
 */
@Configuration(proxyBeanMethods = false)
class WebhookConfiguration {

	@Bean
	FilterRegistrationBean<ShopWebhookSignatureFilter> shopWebhookSignatureFilter(WebhookProperties properties,
			JsonMapper json) {
		return beforeIdempotency(new ShopWebhookSignatureFilter(new WebhookSignature(properties.secret()), json),
				ShopWebhookController.PATH);
	}

	@Bean
	FilterRegistrationBean<SignedWebhookFilter> gatewayWebhookSignatureFilter(WebhookProperties properties,
			JsonMapper json) {
		return beforeIdempotency(new SignedWebhookFilter("gateway", "Gateway-Hmac-Sha256",
				GatewayWebhookController.SIGNATURE_HEADER, new WebhookSignature(properties.gatewaySecret()), json),
				GatewayWebhookController.PATH);
	}

	private static <F extends SignedWebhookFilter> FilterRegistrationBean<F> beforeIdempotency(F filter,
			String path) {
		FilterRegistrationBean<F> registration = new FilterRegistrationBean<>(filter);
		registration.addUrlPatterns(path);
		registration.setOrder(IdempotencyWebMvcAutoConfiguration.FILTER_ORDER - 10);
		return registration;
	}

}
