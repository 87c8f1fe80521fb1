package io.github.idempotency.engine;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.store.StoredResponse;

/**
 * What an entry point (a Spring MVC handler, a bean method, a listener) tells the engine about one
 * call, and how it answers it in its own terms: the only thing a new entry point implements.
 *
 * @param <R> what the call returns to its caller
 */
public interface CallAdapter<R> {

	/**
	 * Return the operation name.
	 * @return the name
	 */
	String operation();

	/**
	 * Return the idempotency key of the call.
	 * @return the key, or {@code null} if the call has none
	 * @throws IdempotencyException if the key is malformed
	 */
	@Nullable String key();

	/**
	 * Return whether a key is required.
	 * @return whether a call without a key is refused
	 */
	boolean required();

	/**
	 * Return the mode the annotation asks for.
	 * @return the mode, or {@code null} for the operation's setting
	 */
	@Nullable IdempotencyMode mode();

	/**
	 * Check that the call can run under the operation's policy, before anything is claimed.
	 * @param policy the policy
	 */
	default void accept(OperationPolicy policy) {
	}

	/**
	 * Return what identifies the call for its fingerprint.
	 * @param operation the operation name
	 * @return the request to fingerprint
	 * @throws Exception if the request cannot be read
	 */
	FingerprintRequest fingerprint(String operation) throws Exception;

	/**
	 * Return the scope and sequence number of the call, for an operation that orders its calls by
	 * one.
	 * @return the sequence number, or {@code null} if the operation has none
	 * @throws io.github.idempotency.InvalidSequenceException if the call yields no valid scope or number
	 */
	default @Nullable SequenceNumber sequence() {
		return null;
	}

	/**
	 * Run the call without idempotency protection, as it has no key and needs none.
	 * @return what it returned
	 * @throws Throwable what it threw
	 */
	@Nullable R proceedUnguarded() throws Throwable;

	/**
	 * Run the claimed call, with its context open, and settle it with {@link IdempotentCall#finish}
	 * (or release it) once its result is known: now, or later for a result that comes later.
	 * @param call the claimed call
	 * @return what the call returns to its caller
	 * @throws Throwable what the call threw
	 */
	@Nullable R run(IdempotentCall call) throws Throwable;

	/**
	 * Answer the call with the stored result of an earlier call with the same key.
	 * @param stored the stored response
	 * @return what the call returns instead of running
	 */
	@Nullable R replay(StoredResponse stored);

	/**
	 * Answer the call with a refusal, decided before it ran.
	 * @param refusal the refusal
	 * @return what the call returns instead of running, if the entry point answers refusals as
	 * values
	 * @throws IdempotencyException the refusal, if the entry point answers refusals by throwing
	 */
	@Nullable R refuse(IdempotencyException refusal);

	/**
	 * Return what to tell a caller without a key.
	 * @return the detail of the problem
	 */
	String missingKeyDetail();

	/**
	 * Return what to tell a caller that reused a key.
	 * @return the detail of the problem
	 */
	String mismatchDetail();

}
