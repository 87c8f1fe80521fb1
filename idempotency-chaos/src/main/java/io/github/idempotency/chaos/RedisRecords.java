package io.github.idempotency.chaos;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.jspecify.annotations.Nullable;

/**
 * Reads the Redis store's idempotency records of {@code create-payment} and
 * {@code create-payment-async}: one hash per record
 * under {@code <prefix>{<tenant>:<operation>:<key>}}, each part percent-escaped, with the fields
 * its Lua scripts write ({@code status}, {@code locked_until} in epoch milliseconds by the
 * server's clock, {@code response_status}, {@code response_body}).
 */
final class RedisRecords implements IdempotencyRecords {

	static final String DEFAULT_PREFIX = "idempotency:";

	private static final Set<String> OPERATIONS = Set.of("create-payment", "create-payment-async", "create-payment-accepted");

	private static final byte[][] FIELDS = { utf8("status"), utf8("locked_until"), utf8("response_status"),
			utf8("response_body") };

	private final RedisURI uri;

	private final String prefix;

	/**
	 * Create a reader.
	 * @param url the server, such as {@code redis://127.0.0.1:6390}
	 * @param prefix the store's key prefix ({@code idempotency.redis.key-prefix})
	 */
	RedisRecords(String url, String prefix) {
		this.uri = RedisURI.create(url);
		this.uri.setTimeout(Duration.ofSeconds(10));
		this.prefix = prefix;
	}

	@Override
	public List<DatabaseState.IdempotencyRecord> load() {
		RedisClient client = RedisClient.create(this.uri);
		try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
			RedisCommands<byte[], byte[]> redis = connection.sync();
			long now = millis(redis.time());
			List<DatabaseState.IdempotencyRecord> records = new ArrayList<>();
			ScanArgs match = ScanArgs.Builder.matches(pattern()).limit(1000);
			ScanCursor cursor = ScanCursor.INITIAL;
			do {
				KeyScanCursor<byte[]> page = redis.scan(cursor, match);
				for (byte[] redisKey : page.getKeys()) {
					String key = keyOf(new String(redisKey, StandardCharsets.UTF_8));
					if (key != null) {
						DatabaseState.IdempotencyRecord record = record(key, redis.hmget(redisKey, FIELDS), now);
						if (record != null) {
							records.add(record);
						}
					}
				}
				cursor = page;
			}
			while (!cursor.isFinished());
			return records;
		}
		finally {
			client.shutdown();
		}
	}

	/**
	 * Read a record from its fields; {@code null} if it vanished since the scan found it.
	 */
	private static DatabaseState.@Nullable IdempotencyRecord record(String key, List<KeyValue<byte[], byte[]>> fields,
			long now) {
		String status = text(fields.get(0));
		if (status == null) {
			return null;
		}
		String lockedUntil = text(fields.get(1));
		String responseStatus = text(fields.get(2));
		byte[] body = fields.get(3).getValueOrElse(null);
		Long lockedUntilMillis = (lockedUntil != null) ? Long.valueOf(lockedUntil) : null;
		return new DatabaseState.IdempotencyRecord(key, status,
				(lockedUntilMillis != null) ? Instant.ofEpochMilli(lockedUntilMillis).toString() : null,
				lockedUntilMillis == null || lockedUntilMillis <= now,
				(responseStatus != null) ? Integer.valueOf(responseStatus) : null,
				(body != null) ? SoakClient.sha256(body) : null);
	}

	/**
	 * Return the client's key of a record of a payment operation under this prefix, or
	 * {@code null} for any other Redis key.
	 */
	private @Nullable String keyOf(String redisKey) {
		if (!redisKey.startsWith(this.prefix + "{") || !redisKey.endsWith("}")) {
			return null;
		}
		String[] parts = redisKey.substring(this.prefix.length() + 1, redisKey.length() - 1).split(":", -1);
		if (parts.length != 3 || !OPERATIONS.contains(unescape(parts[1]))) {
			return null;
		}
		return unescape(parts[2]);
	}

	/**
	 * The {@code SCAN MATCH} pattern of every record under the prefix, its glob characters escaped.
	 */
	private String pattern() {
		StringBuilder pattern = new StringBuilder();
		for (char c : this.prefix.toCharArray()) {
			if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
				pattern.append('\\');
			}
			pattern.append(c);
		}
		return pattern.append("{*}").toString();
	}

	/**
	 * Undo the store's escaping of a part: {@code %XX} for a delimiting character, {@code %uXXXX}
	 * for a lone surrogate.
	 */
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

	private static long millis(List<byte[]> time) {
		return Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1000
				+ Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1000;
	}

	private static @Nullable String text(KeyValue<byte[], byte[]> field) {
		byte[] value = field.getValueOrElse(null);
		return (value != null) ? new String(value, StandardCharsets.UTF_8) : null;
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
