package io.github.idempotency.test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.store.ReferencingIdempotencyStore;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.store.TransactionalIdempotencyStore;

/**
 * A real JDBC store passed every call, for tests that watch or hold some of them back; it offers
 * what the JDBC store offers, ATOMIC's joined transaction included.
 */
public abstract class ForwardingIdempotencyStore
		implements SequencingIdempotencyStore, ReferencingIdempotencyStore, TransactionalIdempotencyStore {

	protected final IdempotencyStore delegate;

	protected ForwardingIdempotencyStore(IdempotencyStore delegate) {
		if (!(delegate instanceof TransactionalIdempotencyStore)) {
			throw new IllegalArgumentException("A forwarding store passes its calls to a JDBC store, not to " + delegate);
		}
		this.delegate = delegate;
	}

	@Override
	public ClaimResult claim(ClaimRequest request) {
		return this.delegate.claim(request);
	}

	@Override
	public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
		return this.delegate.complete(key, token, response, ttl);
	}

	@Override
	public boolean release(IdempotencyKey key, UUID token) {
		return this.delegate.release(key, token);
	}

	@Override
	public boolean release(IdempotencyKey key, UUID token, @Nullable String failure) {
		return this.delegate.release(key, token, failure);
	}

	@Override
	public boolean extendLease(IdempotencyKey key, UUID token, Duration lease) {
		return this.delegate.extendLease(key, token, lease);
	}

	@Override
	public Optional<IdempotencyRecord> find(IdempotencyKey key) {
		return this.delegate.find(key);
	}

	@Override
	public SequenceAdvance advanceSequence(String tenant, String scope, long sequence, Duration ttl) {
		return ((SequencingIdempotencyStore) this.delegate).advanceSequence(tenant, scope, sequence, ttl);
	}

	@Override
	public void addReference(IdempotencyKey key, String name, String value, Duration ttl) {
		((ReferencingIdempotencyStore) this.delegate).addReference(key, name, value, ttl);
	}

	@Override
	public Map<String, List<String>> references(IdempotencyKey key) {
		return ((ReferencingIdempotencyStore) this.delegate).references(key);
	}

	@Override
	public List<IdempotencyKey> findByReference(String name, String value, int limit) {
		return ((ReferencingIdempotencyStore) this.delegate).findByReference(name, value, limit);
	}

}
