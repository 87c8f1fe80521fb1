package io.github.idempotency.sample.webhooks;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.autoconfigure.IdempotencyWebMvcAutoConfiguration;

/**
 * Puts the signature check of shop webhooks in front of the starter's idempotency filter.
 */
@Configuration(proxyBeanMethods = false)
class WebhookConfiguration {

	@Bean
	FilterRegistrationBean<ShopWebhookSignatureFilter> shopWebhookSignatureFilter(ShopWebhookSignature signature,
			JsonMapper json) {
		FilterRegistrationBean<ShopWebhookSignatureFilter> registration = new FilterRegistrationBean<>(
				new ShopWebhookSignatureFilter(signature, json));
		registration.addUrlPatterns(ShopWebhookController.PATH);
		registration.setOrder(IdempotencyWebMvcAutoConfiguration.FILTER_ORDER - 10);
		return registration;
	}

}
