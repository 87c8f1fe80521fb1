package io.github.idempotency.redis;

import io.github.idempotency.engine.IdempotencyProperties;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.engine.IdempotentOperationNames;

/**
 * Refuses at start-up what the Redis store cannot do, rather than at the first request: ATOMIC
 * operations, whose claim must commit with the business writes in one database transaction, and
 * archived operations, whose records are copied to a database table.
 */
class RedisStoreSettingsCheck implements SmartInitializingSingleton {

	private final IdempotencyProperties properties;

	private final ObjectProvider<IdempotentOperationNames> names;

	RedisStoreSettingsCheck(IdempotencyProperties properties, ObjectProvider<IdempotentOperationNames> names) {
		this.properties = properties;
		this.names = names;
	}

	@Override
	public void afterSingletonsInstantiated() {
		Map<String, Set<IdempotencyMode>> declared = new TreeMap<>();
		this.names.orderedStream()
			.forEach((source) -> source.annotatedModes()
				.forEach((name, modes) -> declared.computeIfAbsent(name, (key) -> EnumSet.noneOf(IdempotencyMode.class))
					.addAll(modes)));
		List<String> refused = new ArrayList<>();
		if (this.properties.getDefaultMode() == IdempotencyMode.ATOMIC) {
			refused.add("idempotency.default-mode=atomic makes every operation that names no mode ATOMIC");
		}
		declared.forEach((name, modes) -> {
			if (modes.contains(IdempotencyMode.ATOMIC)) {
				refused.add("operation '" + name + "' is ATOMIC: its @Idempotent annotation says mode = ATOMIC");
			}
		});
		this.properties.getOperations().forEach((name, operation) -> {
			Set<IdempotencyMode> annotated = declared.getOrDefault(name, Set.of());
			if (operation.getMode() == IdempotencyMode.ATOMIC && annotated.isEmpty()) {
				refused.add("operation '" + name + "' is ATOMIC: " + property(name, "mode") + "=atomic");
			}
			if (operation.isArchive()) {
				refused.add("operation '" + name + "' is archived: " + property(name, "archive") + "=true");
			}
		});
		if (!refused.isEmpty()) {
			throw new RedisStoreSettingsException(refused);
		}
	}

	private static String property(String operation, String setting) {
		String key = operation.matches("[a-z0-9-]+") ? operation : "[" + operation + "]";
		return "idempotency.operations." + key + "." + setting;
	}

}
