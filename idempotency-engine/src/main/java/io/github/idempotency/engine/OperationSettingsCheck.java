package io.github.idempotency.engine;

import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;


/**
 * Warns at start-up about {@code idempotency.operations.<name>} settings that match no
 * {@code @Idempotent} operation, which are otherwise silently ignored, naming the closest one.
 */
class OperationSettingsCheck implements SmartInitializingSingleton {

	private static final Logger logger = LoggerFactory.getLogger(OperationSettingsCheck.class);

	private final Collection<String> configured;

	private final ObjectProvider<IdempotentOperationNames> names;

	OperationSettingsCheck(Collection<String> configured, ObjectProvider<IdempotentOperationNames> names) {
		this.configured = configured;
		this.names = names;
	}

	@Override
	public void afterSingletonsInstantiated() {
		Set<String> declared = new TreeSet<>();
		this.names.orderedStream().forEach((source) -> declared.addAll(source.operationNames()));
		for (String name : this.configured) {
			if (!declared.contains(name)) {
				String closest = closest(name, declared);
				logger.warn("idempotency.operations.{} matches no @Idempotent operation, so its settings are not "
						+ "used{}", name, (closest != null) ? "; did you mean '" + closest + "'?"
								: "; the operations are " + declared);
			}
		}
	}

	private static String closest(String name, Set<String> declared) {
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		for (String candidate : declared) {
			int distance = distance(name.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return (best != null && bestDistance <= Math.max(2, best.length() / 3)) ? best : null;
	}

	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
