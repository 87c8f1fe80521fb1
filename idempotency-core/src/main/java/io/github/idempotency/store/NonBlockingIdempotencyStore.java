package io.github.idempotency.store;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.SequencingIdempotencyStore.SequenceAdvance;

/**
 * A store whose calls of a request's life can be awaited without holding a thread, which a
 * reactive entry point calls from its event loop; each asynchronous method writes exactly what its
 * blocking counterpart writes.
 */
public interface NonBlockingIdempotencyStore extends IdempotencyStore {

	/**
	 * As {@link #claim(ClaimRequest)}, without blocking the calling thread.
	 * @param request what to claim
	 * @return the claim, or the live record that prevented it
	 */
	CompletionStage<ClaimResult> claimAsync(ClaimRequest request);

	/**
	 * As {@link #complete(IdempotencyKey, UUID, StoredResponse, Duration)}, without blocking the
	 * calling thread.
	 * @param key the key
	 * @param token the fencing token the claim returned
	 * @param response the response to replay from now on
	 * @param ttl how long from now the record is kept
	 * @return {@code false} if the claim was taken over and nothing was written
	 */
	CompletionStage<Boolean> completeAsync(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl);

	/**
	 * As {@link #release(IdempotencyKey, UUID, String)}, without blocking the calling thread.
	 * @param key the key
	 * @param token the fencing token the claim returned
	 * @param failure what failed, or {@code null} if not told
	 * @return {@code false} if the claim was taken over and nothing was changed
	 */
	CompletionStage<Boolean> releaseAsync(IdempotencyKey key, UUID token, @Nullable String failure);

	/**
	 * As {@link #find(IdempotencyKey)}, without blocking the calling thread.
	 * @param key the key
	 * @return the record, if any
	 */
	CompletionStage<Optional<IdempotencyRecord>> findAsync(IdempotencyKey key);

	/**
	 * As {@link SequencingIdempotencyStore#advanceSequence}, without blocking the calling thread,
	 * for a store that keeps sequence numbers; the default refuses.
	 * @param tenant the tenant the scope belongs to
	 * @param scope the scope
	 * @param sequence the sequence number, zero or more
	 * @param ttl how long the scope is kept after an accepted number
	 * @return whether the number was accepted, and the scope's highest number
	 */
	default CompletionStage<SequenceAdvance> advanceSequenceAsync(String tenant, String scope, long sequence,
			Duration ttl) {
		throw new UnsupportedOperationException(
				"The idempotency store " + getClass().getName() + " keeps no sequence numbers");
	}

}
