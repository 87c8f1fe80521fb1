package io.github.idempotency.engine;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a replay cache turned on without Caffeine, and what to do about it.
 */
class ReplayCacheUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<ReplayCacheUnavailableException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ReplayCacheUnavailableException cause) {
		return new FailureAnalysis(cause.getMessage() + ".",
				"Add com.github.ben-manes.caffeine:caffeine to the application (Spring Boot manages its version), "
						+ "or set idempotency.replay-cache.enabled=false to answer every replay from the store.",
				cause);
	}

}
