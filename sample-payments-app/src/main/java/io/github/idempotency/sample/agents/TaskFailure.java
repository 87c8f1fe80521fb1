package io.github.idempotency.sample.agents;

/**
 * Why an agent task's last attempt failed.
 *
 * @param kind {@code FINAL} (the task can never succeed) or {@code TRANSIENT} (a retry may)
 * @param detail what went wrong
 */
public record TaskFailure(String kind, String detail) {

	static final String FINAL = "FINAL";

	static final String TRANSIENT = "TRANSIENT";

	boolean isFinal() {
		return FINAL.equals(this.kind);
	}

}
