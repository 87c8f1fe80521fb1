package io.github.idempotency.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up without a store for idempotency records, and what to do about it.
 */
class NoIdempotencyStoreFailureAnalyzer extends AbstractFailureAnalyzer<NoIdempotencyStoreException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NoIdempotencyStoreException cause) {
		return new FailureAnalysis("""
				The idempotency starter has no store for its records, so @Idempotent methods would run \
				unguarded: a retry would run them again. The JDBC store needs exactly one DataSource (or a \
				@Primary one), and this application has none.""", """
				Configure a DataSource (spring.datasource.url, or an embedded database such as H2 on the \
				classpath), or define an IdempotencyStore bean of your own. To run @Idempotent methods \
				unguarded on purpose, set idempotency.enabled=false.""", cause);
	}

}
