package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;

/**
 * Reads the replies of the scripts: integers come back as {@link Long}, strings as bytes, absent
 * fields as {@code null}.
 */
final class RedisReplies {

	/**
	 * How many fields a record reply holds: status, fingerprint, token, locked until, created at,
	 * completed at, expires at, response status, response headers, response body, attempts, last
	 * failure, last failure at.
	 */
	static final int RECORD_FIELDS = 13;

	private RedisReplies() {
	}

	/**
	 * Read a record from the fields of a reply, in the order the scripts answer them.
	 * @param key the identity of the record
	 * @param reply the reply
	 * @param offset where the status is
	 * @return the record, or {@code null} if the reply has no status, as for an absent record
	 */
	static @Nullable IdempotencyRecord record(IdempotencyKey key, List<?> reply, int offset) {
		String status = text(reply.get(offset));
		if (status == null) {
			return null;
		}
		RecordStatus recordStatus = RecordStatus.valueOf(status);
		StoredResponse response = null;
		if (recordStatus == RecordStatus.COMPLETED) {
			byte[] headers = bytes(reply.get(offset + 8));
			byte[] body = bytes(reply.get(offset + 9));
			response = new StoredResponse(Math.toIntExact(number(reply.get(offset + 7))),
					RedisHeaders.decode((headers != null) ? headers : new byte[0]), (body != null) ? body : new byte[0]);
		}
		Long attempts = number(reply.get(offset + 10));
		return new IdempotencyRecord(key, recordStatus, required(text(reply.get(offset + 1))),
				UUID.fromString(required(text(reply.get(offset + 2)))), instant(reply.get(offset + 3)),
				required(instant(reply.get(offset + 4))), instant(reply.get(offset + 5)),
				required(instant(reply.get(offset + 6))), response,
				(attempts != null) ? Math.toIntExact(attempts) : 1, text(reply.get(offset + 11)),
				instant(reply.get(offset + 12)));
	}

	static @Nullable String text(@Nullable Object value) {
		byte[] bytes = bytes(value);
		return (bytes != null) ? new String(bytes, StandardCharsets.UTF_8) : null;
	}

	static byte @Nullable [] bytes(@Nullable Object value) {
		if (value == null || value instanceof byte[]) {
			return (byte[]) value;
		}
		return value.toString().getBytes(StandardCharsets.UTF_8);
	}

	static @Nullable Long number(@Nullable Object value) {
		if (value == null || value instanceof Long) {
			return (Long) value;
		}
		return Long.valueOf(required(text(value)));
	}

	static @Nullable Instant instant(@Nullable Object value) {
		Long millis = number(value);
		return (millis != null) ? Instant.ofEpochMilli(millis) : null;
	}

	static byte[] utf8(Object value) {
		return value.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static <T> T required(@Nullable T value) {
		if (value == null) {
			throw new IllegalStateException("An idempotency record in Redis lacks a required field");
		}
		return value;
	}

}
