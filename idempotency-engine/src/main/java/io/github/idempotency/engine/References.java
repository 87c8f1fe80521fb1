package io.github.idempotency.engine;

import java.util.regex.Pattern;

/**
 * The rules of the references business code attaches to keys: names a store can index and
 * separate from their values, values of a bounded length without control characters.
 */
final class References {

	/**
	 * The longest reference name.
	 */
	public static final int MAX_NAME_LENGTH = 64;

	/**
	 * The longest reference value.
	 */
	public static final int MAX_VALUE_LENGTH = 255;

	private static final Pattern NAME = Pattern.compile("[a-z0-9_.-]{1," + MAX_NAME_LENGTH + "}");

	private References() {
	}

	/**
	 * Check a reference.
	 * @param name the kind of reference
	 * @param value the reference
	 * @throws IllegalArgumentException if either breaks the rules
	 */
	public static void check(String name, String value) {
		if (name == null || !NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("A reference name is 1 to " + MAX_NAME_LENGTH
					+ " characters a-z, 0-9, '_', '.' or '-', such as gateway_transaction");
		}
		if (value == null || value.isEmpty() || value.length() > MAX_VALUE_LENGTH
				|| value.chars().anyMatch(Character::isISOControl)) {
			throw new IllegalArgumentException("A reference value is 1 to " + MAX_VALUE_LENGTH
					+ " characters, none of them a control character");
		}
	}

}
