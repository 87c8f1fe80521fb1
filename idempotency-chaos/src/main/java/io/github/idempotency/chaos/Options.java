package io.github.idempotency.chaos;

import java.util.HashMap;
import java.util.Map;

/**
 * The {@code --name=value} arguments of a program of this module.
 */
final class Options {

	private final Map<String, String> values = new HashMap<>();

	Options(String[] args) {
		for (String arg : args) {
			if (!arg.startsWith("--") || !arg.contains("=")) {
				throw new IllegalArgumentException("Arguments are --name=value, not '" + arg + "'");
			}
			this.values.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
		}
	}

	String get(String name) {
		String value = this.values.get(name);
		if (value == null) {
			throw new IllegalArgumentException("Missing argument --" + name + "=...");
		}
		return value;
	}

	boolean has(String name) {
		return this.values.containsKey(name);
	}

	String get(String name, String defaultValue) {
		return this.values.getOrDefault(name, defaultValue);
	}

}
