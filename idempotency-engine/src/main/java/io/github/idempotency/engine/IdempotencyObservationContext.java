package io.github.idempotency.engine;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What the observation of one guarded call knows about it, filled in as the call goes on.
 */
final class IdempotencyObservationContext extends Observation.Context {

	static final String ERROR = "error";

	private final String operation;

	private final String mode;

	private @Nullable String keyHash;

	private @Nullable String outcome;

	private int attempt;

	IdempotencyObservationContext(String operation, String mode) {
		this.operation = operation;
		this.mode = mode;
	}

	String operation() {
		return this.operation;
	}

	String mode() {
		return this.mode;
	}

	@Nullable String keyHash() {
		return this.keyHash;
	}

	void keyHash(String keyHash) {
		this.keyHash = keyHash;
	}

	@Nullable String outcome() {
		return this.outcome;
	}

	void outcome(String outcome) {
		this.outcome = outcome;
	}

	/**
	 * Return which run of the key's operation the call is, once its key is claimed.
	 * @return the attempt number, or 0 for a call that does not run
	 */
	int attempt() {
		return this.attempt;
	}

	void attempt(int attempt) {
		this.attempt = attempt;
	}

}
