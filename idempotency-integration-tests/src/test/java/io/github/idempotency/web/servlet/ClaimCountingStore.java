package io.github.idempotency.web.servlet;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.test.ForwardingIdempotencyStore;

/**
 * A real store that also counts claim attempts per key, so that a test can tell when a duplicate
 * has reached the store.
 */
class ClaimCountingStore extends ForwardingIdempotencyStore {

	private final Map<String, AtomicInteger> claims = new ConcurrentHashMap<>();

	ClaimCountingStore(IdempotencyStore delegate) {
		super(delegate);
	}

	int claims(String key) {
		AtomicInteger count = this.claims.get(key);
		return (count != null) ? count.get() : 0;
	}

	@Override
	public ClaimResult claim(ClaimRequest request) {
		try {
			return this.delegate.claim(request);
		}
		finally {
			this.claims.computeIfAbsent(request.key().key(), (key) -> new AtomicInteger()).incrementAndGet();
		}
	}

}
