package io.github.idempotency.engine;

import java.time.Duration;
import java.time.Instant;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.StoredResponse;

/**
 * The completed records this instance answered replays from, bounded in entries and bytes, each
 * kept no longer than its maximum age and never past its expiry less a margin for clocks.
 */
final class CachedReplays {

	/**
	 * How far the JVM's clock may run behind the store's before a record could be replayed from
	 * here after the store let it expire.
	 */
	static final Duration CLOCK_MARGIN = Duration.ofMinutes(1);

	private static final int ENTRY_OVERHEAD = 256;

	private final Cache<IdempotencyKey, Entry> cache;

	private final Duration maxAge;

	CachedReplays(long maxEntries, long maxBytes, Duration maxAge) {
		this.maxAge = maxAge;
		// Caffeine bounds either entries or weight: weigh each entry at least maxBytes / maxEntries,
		// so that the weight bounds both.
		long floor = Math.max(1, maxBytes / Math.max(1, maxEntries));
		this.cache = Caffeine.newBuilder()
			.maximumWeight(maxBytes)
			.<IdempotencyKey, Entry>weigher((key, entry) -> (int) Math.min(Integer.MAX_VALUE,
					Math.max(floor, entry.weight())))
			.expireAfter(new EntryExpiry())
			.build();
	}

	/**
	 * Return the completed record of a key, if this instance holds it and may still answer from it.
	 * @param key the key
	 * @return the record, or {@code null}
	 */
	@Nullable IdempotencyRecord find(IdempotencyKey key) {
		Entry entry = this.cache.getIfPresent(key);
		if (entry == null || !Instant.now().isBefore(entry.until())) {
			return null;
		}
		return entry.record();
	}

	/**
	 * Keep a completed record, read from the store's committed state, unless it expires too soon.
	 * @param record the record
	 */
	void put(IdempotencyRecord record) {
		if (!record.isCompleted()) {
			return;
		}
		Instant now = Instant.now();
		Instant until = record.expiresAt().minus(CLOCK_MARGIN);
		Instant aged = now.plus(this.maxAge);
		if (aged.isBefore(until)) {
			until = aged;
		}
		if (until.isAfter(now)) {
			this.cache.put(record.key(), new Entry(record, until));
		}
	}

	private record Entry(IdempotencyRecord record, Instant until) {

		long weight() {
			StoredResponse response = record.response();
			long headers = (response != null) ? response.headers().toString().length() : 0;
			long body = (response != null) ? response.body().length : 0;
			return ENTRY_OVERHEAD + record.key().key().length() + record.fingerprint().length() + headers + body;
		}

	}

	private static final class EntryExpiry implements Expiry<IdempotencyKey, Entry> {

		@Override
		public long expireAfterCreate(IdempotencyKey key, Entry entry, long currentTime) {
			return Math.max(0, Duration.between(Instant.now(), entry.until()).toNanos());
		}

		@Override
		public long expireAfterUpdate(IdempotencyKey key, Entry entry, long currentTime, long currentDuration) {
			return expireAfterCreate(key, entry, currentTime);
		}

		@Override
		public long expireAfterRead(IdempotencyKey key, Entry entry, long currentTime, long currentDuration) {
			return currentDuration;
		}

	}

}
