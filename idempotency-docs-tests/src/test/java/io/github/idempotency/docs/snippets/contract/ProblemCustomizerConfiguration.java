package io.github.idempotency.docs.snippets.contract;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.idempotency.IdempotencyProblemCustomizer;

/**
 * Adds the application's own error code to every problem the starter answers with.
 */
@Configuration(proxyBeanMethods = false)
class ProblemCustomizerConfiguration {

	// tag::problem-customizer[]
	@Bean
	IdempotencyProblemCustomizer errorCodes() {
		return (problem, refusal) -> problem.setProperty("errorCode", "IDEMPOTENCY");
	}
	// end::problem-customizer[]

}
