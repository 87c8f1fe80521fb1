package io.github.idempotency.docs.snippets.operations;

import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Actuator behind a role, the idempotency endpoint behind one of its own; health open to all.
 */
@Configuration(proxyBeanMethods = false)
class ActuatorSecurityConfiguration {

	// tag::actuator-security[]
	@Bean
	@Order(1)
	SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
		return http.securityMatcher(EndpointRequest.toAnyEndpoint())
			.authorizeHttpRequests((requests) -> requests
				.requestMatchers(EndpointRequest.to(HealthEndpoint.class)).permitAll()
				.requestMatchers(EndpointRequest.to("idempotency")).hasRole("OPS")
				.anyRequest().hasRole("ACTUATOR"))
			.httpBasic(Customizer.withDefaults())
			.build();
	}
	// end::actuator-security[]

}
