package io.github.idempotency.web.reactive;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.NonBlockingIdempotencyStore;
import io.github.idempotency.store.SequencingIdempotencyStore.SequenceAdvance;
import io.github.idempotency.store.StoredResponse;

/**
 * A real non-blocking store whose asynchronous claims of keys starting with {@code held-} are sent
 * only once a test lets them go, without holding a thread meanwhile, so that a test can act while
 * a claim is on its way to the store.
 */
class HeldNonBlockingClaimStore implements NonBlockingIdempotencyStore {

	private final NonBlockingIdempotencyStore delegate;

	private final Semaphore arrived = new Semaphore(0);

	private volatile CompletableFuture<Void> release = CompletableFuture.completedFuture(null);

	HeldNonBlockingClaimStore(NonBlockingIdempotencyStore delegate) {
		this.delegate = delegate;
	}

	void hold() {
		this.release = new CompletableFuture<>();
	}

	void letGo() {
		this.release.complete(null);
	}

	boolean awaitHeldClaim() throws InterruptedException {
		return this.arrived.tryAcquire(30, TimeUnit.SECONDS);
	}

	@Override
	public CompletionStage<ClaimResult> claimAsync(ClaimRequest request) {
		if (!request.key().key().startsWith("held-")) {
			return this.delegate.claimAsync(request);
		}
		this.arrived.release();
		return this.release.thenCompose((released) -> this.delegate.claimAsync(request));
	}

	@Override
	public CompletionStage<Boolean> completeAsync(IdempotencyKey key, UUID token, StoredResponse response,
			Duration ttl) {
		return this.delegate.completeAsync(key, token, response, ttl);
	}

	@Override
	public CompletionStage<Boolean> releaseAsync(IdempotencyKey key, UUID token, @Nullable String failure) {
		return this.delegate.releaseAsync(key, token, failure);
	}

	@Override
	public CompletionStage<Optional<IdempotencyRecord>> findAsync(IdempotencyKey key) {
		return this.delegate.findAsync(key);
	}

	@Override
	public CompletionStage<SequenceAdvance> advanceSequenceAsync(String tenant, String scope, long sequence,
			Duration ttl) {
		return this.delegate.advanceSequenceAsync(tenant, scope, sequence, ttl);
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

}
