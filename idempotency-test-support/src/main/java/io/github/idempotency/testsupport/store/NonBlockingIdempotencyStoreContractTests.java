package io.github.idempotency.testsupport.store;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.NonBlockingIdempotencyStore;
import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.store.StoredResponse;

/**
 * The store contract, concurrency fuzz included, held against the asynchronous calls of a
 * {@link NonBlockingIdempotencyStore}: every claim, completion, release, look-up and sequence
 * advance of the tests goes through its asynchronous counterpart, awaited. A non-blocking store's
 * tests extend this class as well as running {@link IdempotencyStoreContractTests} on its
 * blocking calls.
 */
public abstract class NonBlockingIdempotencyStoreContractTests extends IdempotencyStoreContractTests {

	/**
	 * Return the store under test.
	 * @return the store
	 */
	protected abstract NonBlockingIdempotencyStore nonBlockingStore();

	@Override
	protected final IdempotencyStore store() {
		return new AwaitedCalls(nonBlockingStore());
	}

	/**
	 * The sequence tests, through the asynchronous advance, for a store that keeps sequence numbers.
	 */
	@Nested
	public class Sequences extends SequencingIdempotencyStoreContractTests {

		@Override
		protected SequencingIdempotencyStore store() {
			return new AwaitedCalls(nonBlockingStore());
		}

		@Override
		protected Duration shortTime() {
			return NonBlockingIdempotencyStoreContractTests.this.shortTime();
		}

	}

	/**
	 * A blocking view of a non-blocking store that awaits its asynchronous calls; only
	 * {@code extendLease}, which has none, is called as it is.
	 */
	private static final class AwaitedCalls implements SequencingIdempotencyStore {

		private final NonBlockingIdempotencyStore store;

		AwaitedCalls(NonBlockingIdempotencyStore store) {
			this.store = store;
		}

		@Override
		public ClaimResult claim(ClaimRequest request) {
			return await(this.store.claimAsync(request));
		}

		@Override
		public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
			return await(this.store.completeAsync(key, token, response, ttl));
		}

		@Override
		public boolean release(IdempotencyKey key, UUID token) {
			return await(this.store.releaseAsync(key, token, null));
		}

		@Override
		public boolean release(IdempotencyKey key, UUID token, @Nullable String failure) {
			return await(this.store.releaseAsync(key, token, failure));
		}

		@Override
		public boolean extendLease(IdempotencyKey key, UUID token, Duration lease) {
			return this.store.extendLease(key, token, lease);
		}

		@Override
		public Optional<IdempotencyRecord> find(IdempotencyKey key) {
			return await(this.store.findAsync(key));
		}

		@Override
		public SequenceAdvance advanceSequence(String tenant, String scope, long sequence, Duration ttl) {
			return await(this.store.advanceSequenceAsync(tenant, scope, sequence, ttl));
		}

		private static <T> T await(CompletionStage<T> stage) {
			try {
				return stage.toCompletableFuture().join();
			}
			catch (CompletionException ex) {
				if (ex.getCause() instanceof RuntimeException failure) {
					throw failure;
				}
				throw ex;
			}
		}

	}

}
