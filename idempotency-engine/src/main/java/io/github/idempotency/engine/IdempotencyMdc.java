package io.github.idempotency.engine;

import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.MDC;

import io.github.idempotency.Outcome;

/**
 * The MDC entries of an idempotent request: its operation, a short hash of its key, and its
 * outcome once known; never the key itself or the tenant.
 */
final class IdempotencyMdc {

	/**
	 * MDC key of the operation name.
	 */
	public static final String OPERATION = "idempotency.operation";

	/**
	 * MDC key of the short hash of the idempotency key, as {@link KeyHashes#shortHash} gives it.
	 */
	public static final String KEY_HASH = "idempotency.key";

	/**
	 * MDC key of the outcome, as {@link Outcome#tag()} gives it.
	 */
	public static final String OUTCOME = "idempotency.outcome";

	private IdempotencyMdc() {
	}

	/**
	 * Put the operation of the request running on this thread.
	 * @param operation the operation name
	 */
	public static void putOperation(String operation) {
		MDC.put(OPERATION, operation);
	}

	/**
	 * Put the short hash of the key of the request running on this thread.
	 * @param keyHash the key's short hash, as {@link KeyHashes#shortHash} gives it
	 */
	public static void putKeyHash(String keyHash) {
		MDC.put(KEY_HASH, keyHash);
	}

	/**
	 * Put the outcome of the request running on this thread, if an operation was put.
	 * @param outcome the outcome
	 */
	public static void putOutcome(Outcome outcome) {
		if (MDC.get(OPERATION) != null) {
			MDC.put(OUTCOME, outcome.tag());
		}
	}

	/**
	 * Remember the entries of an enclosing idempotent call, such as the HTTP request a service
	 * method runs in, to restore them when the returned scope closes.
	 * @return the scope
	 */
	public static Scope scope() {
		String operation = MDC.get(OPERATION);
		String key = MDC.get(KEY_HASH);
		String outcome = MDC.get(OUTCOME);
		return () -> {
			restore(OPERATION, operation);
			restore(KEY_HASH, key);
			restore(OUTCOME, outcome);
		};
	}

	private static void restore(String name, String value) {
		if (value != null) {
			MDC.put(name, value);
		}
		else {
			MDC.remove(name);
		}
	}

	/**
	 * Return the entries this class put on the current thread.
	 * @return the entries, by name; empty when there are none
	 */
	public static Map<String, String> entries() {
		Map<String, String> entries = new LinkedHashMap<>();
		for (String name : new String[] { OPERATION, KEY_HASH, OUTCOME }) {
			String value = MDC.get(name);
			if (value != null) {
				entries.put(name, value);
			}
		}
		return entries;
	}

	/**
	 * Remove every entry this class puts.
	 */
	public static void clear() {
		MDC.remove(OPERATION);
		MDC.remove(KEY_HASH);
		MDC.remove(OUTCOME);
	}

	/**
	 * Restores the MDC entries an idempotent call found when it started.
	 */
	@FunctionalInterface
	public interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
