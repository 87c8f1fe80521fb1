package io.github.idempotency.actuate;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * What the meters of this instance have counted since it started, per operation and for the
 * purge.
 *
 * @param operations outcomes, executions in flight and takeovers, by operation
 * @param purge what the purge of this instance did, or {@code null} where it has none
 */
record ActivityDescriptor(Map<String, OperationActivity> operations, @Nullable PurgeActivity purge) {

	ActivityDescriptor only(Predicate<String> operation) {
		return new ActivityDescriptor(this.operations.entrySet()
			.stream()
			.filter((entry) -> operation.test(entry.getKey()))
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (first, second) -> first, TreeMap::new)),
				this.purge);
	}

	/**
	 * What the meters of one operation have counted.
	 *
	 * @param outcomes calls by outcome tag (such as {@code executed} or {@code replayed})
	 * @param inFlight executions running in this instance now
	 * @param takeovers claims that took over a key whose lease had run out
	 */
	public record OperationActivity(Map<String, Long> outcomes, long inFlight, long takeovers) {

	}

	/**
	 * What the purge of this instance did.
	 *
	 * @param runs purge runs
	 * @param deleted records deleted, by reason ({@code expired} or {@code stuck})
	 * @param archived records copied to the archive table
	 */
	public record PurgeActivity(long runs, Map<String, Long> deleted, long archived) {

	}

}
