package io.github.idempotency.hsqlapp;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;

/**
 * A store of an application's own, in memory, as one for a database that the starter does not
 * support would be.
 */
class MapIdempotencyStore implements IdempotencyStore {

	private final Map<IdempotencyKey, IdempotencyRecord> records = new HashMap<>();

	@Override
	public synchronized ClaimResult claim(ClaimRequest request) {
		Instant now = Instant.now();
		IdempotencyRecord existing = live(request.key(), now);
		if (existing != null && (existing.isCompleted() || existing.lockedUntil().isAfter(now))) {
			Duration remaining = existing.isCompleted() ? Duration.ZERO
					: Duration.between(now, existing.lockedUntil());
			return new ClaimResult.Existing(existing, remaining);
		}
		UUID token = UUID.randomUUID();
		this.records.put(request.key(), new IdempotencyRecord(request.key(), RecordStatus.IN_PROGRESS,
				request.fingerprint(), token, now.plus(request.lease()), now, null, now.plus(request.ttl()), null));
		return new ClaimResult.Claimed(token, existing != null);
	}

	@Override
	public synchronized boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
		IdempotencyRecord record = this.records.get(key);
		if (record == null || !record.token().equals(token) || record.isCompleted()) {
			return false;
		}
		Instant now = Instant.now();
		this.records.put(key, new IdempotencyRecord(key, RecordStatus.COMPLETED, record.fingerprint(), token, null,
				record.createdAt(), now, now.plus(ttl), response));
		return true;
	}

	@Override
	public synchronized boolean release(IdempotencyKey key, UUID token) {
		IdempotencyRecord record = this.records.get(key);
		return record != null && record.token().equals(token) && this.records.remove(key, record);
	}

	@Override
	public synchronized boolean extendLease(IdempotencyKey key, UUID token, Duration lease) {
		IdempotencyRecord record = this.records.get(key);
		if (record == null || !record.token().equals(token) || record.isCompleted()) {
			return false;
		}
		this.records.put(key, new IdempotencyRecord(key, record.status(), record.fingerprint(), token,
				Instant.now().plus(lease), record.createdAt(), null, record.expiresAt(), null));
		return true;
	}

	@Override
	public synchronized Optional<IdempotencyRecord> find(IdempotencyKey key) {
		return Optional.ofNullable(live(key, Instant.now()));
	}

	private @Nullable IdempotencyRecord live(IdempotencyKey key, Instant now) {
		IdempotencyRecord record = this.records.get(key);
		return (record != null && record.expiresAt().isAfter(now)) ? record : null;
	}

}
