package io.github.idempotency.redis;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains which operations ask the Redis store for what it cannot do, and what to do about it.
 */
class RedisStoreSettingsFailureAnalyzer extends AbstractFailureAnalyzer<RedisStoreSettingsException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RedisStoreSettingsException cause) {
		StringBuilder description = new StringBuilder("""
				The idempotency records are kept in Redis, which runs LEASED operations only, and these \
				settings ask for more:
				""");
		cause.refused().forEach((refused) -> description.append("\n    - ").append(refused));
		description.append("""


				ATOMIC needs the claim to commit in the same database transaction as the operation's own \
				writes, which a Redis record cannot join; archive copies records to a table of the \
				application's database.""");
		return new FailureAnalysis(description.toString(), """
				Make these operations LEASED (remove mode = ATOMIC from the annotation, or set their mode \
				property to leased) and remove archive; or use the JDBC store for this operation's \
				application: set idempotency.store.type=jdbc with a DataSource (PostgreSQL), which supports \
				both.""", cause);
	}

}
