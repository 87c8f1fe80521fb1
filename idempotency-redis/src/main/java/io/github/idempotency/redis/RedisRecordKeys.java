package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;

/**
 * The Redis key of each record: {@code <prefix>{<tenant>:<operation>:<key>}}, the braces making
 * the whole identity the hash tag, so that a record and every script on it touch one slot of a
 * Redis Cluster. Each part is escaped, so that no tenant, operation or key can close the tag or
 * make two identities share a Redis key.
 */
final class RedisRecordKeys {

	private static final char SEPARATOR = ':';

	private final String prefix;

	RedisRecordKeys(String prefix) {
		if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
			throw new IllegalArgumentException(
					"The Redis key prefix of idempotency records must not contain '{' or '}', which would move the "
							+ "hash tag of Redis Cluster, but was '" + prefix + "'");
		}
		this.prefix = prefix;
	}

	/**
	 * Return the Redis key of a record.
	 * @param key the identity of the record
	 * @return the Redis key, UTF-8
	 */
	byte[] of(IdempotencyKey key) {
		StringBuilder redisKey = new StringBuilder(this.prefix.length() + key.tenant().length()
				+ key.operation().length() + key.key().length() + 4);
		redisKey.append(this.prefix).append('{');
		escape(key.tenant(), redisKey);
		redisKey.append(SEPARATOR);
		escape(key.operation(), redisKey);
		redisKey.append(SEPARATOR);
		escape(key.key(), redisKey);
		redisKey.append('}');
		return redisKey.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Return the Redis key of the sequence numbers of a scope:
	 * {@code <prefix>sequence:{<tenant>:<scope>}}, escaped as record keys are; it never matches
	 * the {@link #pattern()} of records.
	 * @param tenant the tenant
	 * @param scope the scope
	 * @return the Redis key, UTF-8
	 */
	byte[] sequence(String tenant, String scope) {
		StringBuilder redisKey = new StringBuilder(this.prefix.length() + tenant.length() + scope.length() + 12);
		redisKey.append(this.prefix).append("sequence:{");
		escape(tenant, redisKey);
		redisKey.append(SEPARATOR);
		escape(scope, redisKey);
		redisKey.append('}');
		return redisKey.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Return the Redis key of the index of a reference: {@code <prefix>reference:{<name>:<value>}},
	 * escaped as record keys are; it never matches the {@link #pattern()} of records.
	 * @param name the kind of reference
	 * @param value the reference
	 * @return the Redis key, UTF-8
	 */
	byte[] referenceIndex(String name, String value) {
		StringBuilder redisKey = new StringBuilder(this.prefix.length() + name.length() + value.length() + 13);
		redisKey.append(this.prefix).append("reference:{");
		escape(name, redisKey);
		redisKey.append(SEPARATOR);
		escape(value, redisKey);
		redisKey.append('}');
		return redisKey.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Return the {@code SCAN MATCH} pattern of every record under this prefix.
	 * @return the pattern, UTF-8
	 */
	byte[] pattern() {
		StringBuilder pattern = new StringBuilder();
		for (char c : this.prefix.toCharArray()) {
			if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
				pattern.append('\\');
			}
			pattern.append(c);
		}
		return pattern.append("{*}").toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Return the operation of a record from its Redis key.
	 * @param redisKey the Redis key
	 * @return the operation, or {@code null} if the key is not one of a record under this prefix
	 */
	@Nullable String operationOf(byte[] redisKey) {
		IdempotencyKey identity = identityOf(redisKey);
		return (identity != null) ? identity.operation() : null;
	}

	/**
	 * Return the identity of a record from its Redis key.
	 * @param redisKey the Redis key
	 * @return the identity, or {@code null} if the key is not one of a record under this prefix
	 */
	@Nullable IdempotencyKey identityOf(byte[] redisKey) {
		String text = new String(redisKey, StandardCharsets.UTF_8);
		if (!text.startsWith(this.prefix + "{") || !text.endsWith("}")) {
			return null;
		}
		String[] parts = text.substring(this.prefix.length() + 1, text.length() - 1).split(":", -1);
		return (parts.length == 3) ? new IdempotencyKey(unescape(parts[0]), unescape(parts[1]), unescape(parts[2]))
				: null;
	}

	/**
	 * Percent-encode the characters that delimit a part ({@code %}, the braces of the hash tag and
	 * the separator) and lone surrogates, which UTF-8 cannot carry.
	 */
	private static void escape(String part, StringBuilder out) {
		for (int i = 0; i < part.length(); i++) {
			char c = part.charAt(i);
			switch (c) {
				case '%' -> out.append("%25");
				case '{' -> out.append("%7B");
				case '}' -> out.append("%7D");
				case SEPARATOR -> out.append("%3A");
				default -> {
					if (Character.isHighSurrogate(c) && i + 1 < part.length()
							&& Character.isLowSurrogate(part.charAt(i + 1))) {
						out.append(c).append(part.charAt(++i));
					}
					else if (Character.isSurrogate(c)) {
						out.append("%u").append(HexFormat.of().withUpperCase().toHexDigits(c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
	}

	private static String unescape(String part) {
		StringBuilder out = new StringBuilder(part.length());
		for (int i = 0; i < part.length(); i++) {
			char c = part.charAt(i);
			if (c != '%') {
				out.append(c);
			}
			else if (part.charAt(i + 1) == 'u') {
				out.append((char) HexFormat.fromHexDigits(part, i + 2, i + 6));
				i += 5;
			}
			else {
				out.append((char) HexFormat.fromHexDigits(part, i + 1, i + 3));
				i += 2;
			}
		}
		return out.toString();
	}

}
