package io.github.idempotency.engine;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import io.github.idempotency.annotation.IdempotencyMode;

/**
 * Names of operations the application declares, found at start-up so that their meters exist
 * before the first request, and what their annotations ask for, so that a store can refuse what
 * it cannot do before the first request.
 */
public interface IdempotentOperationNames {

	/**
	 * Return the operation names, derived exactly as they are at run time.
	 * @return the names
	 */
	default Set<String> operationNames() {
		return annotatedModes().keySet();
	}

	/**
	 * Return every operation with the modes its {@code @Idempotent} annotations name.
	 * @return for each operation name, the modes named (empty where no annotation names one)
	 */
	Map<String, Set<IdempotencyMode>> annotatedModes();

	/**
	 * Return the operations whose calls are ordered by {@code @IdempotentSequence}, so that a
	 * store that keeps no sequence numbers is refused before the first request.
	 * @return the operation names
	 */
	default Set<String> sequencedOperations() {
		return Set.of();
	}

	/**
	 * Return whether these names include the methods of controllers, which bean methods then
	 * leave out.
	 * @return {@code true} for the names of a web adapter
	 */
	default boolean namesControllers() {
		return false;
	}

	/**
	 * Add an operation with the mode its annotation declares.
	 * @param operations the operations by name, with their modes
	 * @param name the operation's name
	 * @param attributes its annotation's attributes
	 */
	static void add(Map<String, Set<IdempotencyMode>> operations, String name, IdempotentAttributes attributes) {
		Set<IdempotencyMode> modes = operations.computeIfAbsent(name, (key) -> EnumSet.noneOf(IdempotencyMode.class));
		if (attributes.mode() != null) {
			modes.add(attributes.mode());
		}
	}

}
