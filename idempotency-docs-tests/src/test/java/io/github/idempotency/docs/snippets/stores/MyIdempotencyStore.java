package io.github.idempotency.docs.snippets.stores;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.store.StoredResponse;

/**
 * The shape of a store of your own, as the store SPI asks for it: here only so that the contract
 * test's snippet compiles, never run.
 */
class MyIdempotencyStore implements SequencingIdempotencyStore {

	@Override
	public ClaimResult claim(ClaimRequest request) {
		throw new UnsupportedOperationException("a store of your own");
	}

	@Override
	public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
		throw new UnsupportedOperationException("a store of your own");
	}

	@Override
	public boolean release(IdempotencyKey key, UUID token) {
		throw new UnsupportedOperationException("a store of your own");
	}

	@Override
	public boolean extendLease(IdempotencyKey key, UUID token, Duration lease) {
		throw new UnsupportedOperationException("a store of your own");
	}

	@Override
	public Optional<IdempotencyRecord> find(IdempotencyKey key) {
		throw new UnsupportedOperationException("a store of your own");
	}

	@Override
	public SequenceAdvance advanceSequence(String tenant, String scope, long sequence, Duration ttl) {
		throw new UnsupportedOperationException("a store of your own");
	}

}
