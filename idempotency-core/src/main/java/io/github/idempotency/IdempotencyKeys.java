package io.github.idempotency;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Validation of idempotency keys as they arrive in a header (SPEC 4) or from a key expression.
 */
public final class IdempotencyKeys {

	/**
	 * The longest key accepted, in characters.
	 */
	public static final int MAX_LENGTH = 255;

	private IdempotencyKeys() {
	}

	/**
	 * Parse a header value: a token of printable ASCII, or an RFC 8941 quoted string.
	 * @param raw the header value
	 * @return the key
	 * @throws InvalidIdempotencyKeyException if the value is empty, too long or not printable
	 * ASCII
	 */
	public static String parseHeader(String raw) {
		if (raw.isEmpty()) {
			throw new InvalidIdempotencyKeyException("The idempotency key must not be empty.");
		}
		String key = (raw.charAt(0) == '"') ? unquote(raw) : raw;
		if (key.isEmpty()) {
			throw new InvalidIdempotencyKeyException("The idempotency key must not be empty.");
		}
		if (key.length() > MAX_LENGTH) {
			throw new InvalidIdempotencyKeyException(
					"The idempotency key must be at most " + MAX_LENGTH + " characters long.");
		}
		for (int i = 0; i < key.length(); i++) {
			if (!isPrintableAscii(key.charAt(i))) {
				throw new InvalidIdempotencyKeyException(
						"The idempotency key must consist of printable ASCII characters only.");
			}
		}
		return key;
	}

	/**
	 * Turn a value derived by a key expression into a key: kept as is when it would be a valid
	 * header key, otherwise replaced by {@code sha256:} and its hash so that any value is usable.
	 * @param derived the derived value, not empty
	 * @return the key
	 */
	public static String fromDerivedValue(String derived) {
		if (derived.length() <= MAX_LENGTH && derived.chars().allMatch((c) -> isPrintableAscii((char) c))) {
			return derived;
		}
		return "sha256:" + KeyHashes.sha256Hex(derived);
	}

	/**
	 * Parse the values of a key header, which a request must send at most once.
	 * @param values the values of the header, in the order sent, or {@code null}
	 * @param header the header's name, for the refusal
	 * @return the key, or {@code null} if the header was not sent
	 * @throws InvalidIdempotencyKeyException if the header was sent more than once or is malformed
	 */
	public static @Nullable String parseHeaderValues(@Nullable List<String> values, String header) {
		if (values == null || values.isEmpty()) {
			return null;
		}
		if (values.size() > 1) {
			throw new InvalidIdempotencyKeyException("The " + header + " header must be sent only once.");
		}
		return parseHeader(values.get(0));
	}


	private static String unquote(String raw) {
		if (raw.length() < 2 || raw.charAt(raw.length() - 1) != '"') {
			throw new InvalidIdempotencyKeyException("The quoted idempotency key is not terminated.");
		}
		StringBuilder key = new StringBuilder(raw.length() - 2);
		for (int i = 1; i < raw.length() - 1; i++) {
			char c = raw.charAt(i);
			if (c == '\\') {
				if (i + 1 >= raw.length() - 1 || (raw.charAt(i + 1) != '"' && raw.charAt(i + 1) != '\\')) {
					throw new InvalidIdempotencyKeyException(
							"The quoted idempotency key has an invalid escape sequence.");
				}
				c = raw.charAt(++i);
			}
			else if (c == '"') {
				throw new InvalidIdempotencyKeyException("The quoted idempotency key has an unescaped quote.");
			}
			key.append(c);
		}
		return key.toString();
	}

	private static boolean isPrintableAscii(char c) {
		return c >= 0x20 && c <= 0x7E;
	}

}
