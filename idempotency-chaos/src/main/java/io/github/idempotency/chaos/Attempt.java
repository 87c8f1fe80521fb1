package io.github.idempotency.chaos;

import org.jspecify.annotations.Nullable;

/**
 * One request of the soak and what came back, as recorded in the history.
 *
 * @param worker the worker that sent it
 * @param key the idempotency key, the same on every attempt of one logical payment
 * @param attempt the attempt number of the key, from 1, across every retry
 * @param instance the instance it was sent to, from 1
 * @param phase {@code run} while faults are injected, {@code drain} while unresolved keys are
 * retried after the last fault, {@code verify} for the final replay of every acknowledged key
 * @param start when it was sent, epoch milliseconds
 * @param end when its answer or error arrived, epoch milliseconds
 * @param status the HTTP status, or {@code null} after a connection error
 * @param replayed whether the answer carried {@code Idempotent-Replayed: true}
 * @param problemType the {@code type} of a problem+json answer, or {@code null}
 * @param bodyHash the SHA-256 of the answer's body, or {@code null} after a connection error
 * @param error the connection error's class and message, or {@code null}
 * @param requestHash the SHA-256 of the request body
 * @param paymentId the payment id of a 2xx answer, or {@code null}
 * @param chargeId the gateway charge id of a 2xx answer, or {@code null}
 * @param async whether it went to the asynchronous endpoint ({@code POST /payments/async}, the
 * operation {@code create-payment-async})
 * @param accepted whether it went to the endpoint that answers {@code 202 Accepted} for a slow
 * payment ({@code POST /payments/accepted}, the operation {@code create-payment-accepted})
 * @param poll whether it read the status link of an accepted payment ({@code GET}) rather than
 * sent the payment
 */
record Attempt(int worker, String key, int attempt, int instance, String phase, long start, long end,
		@Nullable Integer status, boolean replayed, @Nullable String problemType, @Nullable String bodyHash,
		@Nullable String error, String requestHash, @Nullable Long paymentId, @Nullable String chargeId,
		boolean async, boolean accepted, boolean poll) {

	Attempt(int worker, String key, int attempt, int instance, String phase, long start, long end,
			@Nullable Integer status, boolean replayed, @Nullable String problemType, @Nullable String bodyHash,
			@Nullable String error, String requestHash, @Nullable Long paymentId, @Nullable String chargeId,
			boolean async) {
		this(worker, key, attempt, instance, phase, start, end, status, replayed, problemType, bodyHash, error,
				requestHash, paymentId, chargeId, async, false, false);
	}

	Attempt(int worker, String key, int attempt, int instance, String phase, long start, long end,
			@Nullable Integer status, boolean replayed, @Nullable String problemType, @Nullable String bodyHash,
			@Nullable String error, String requestHash, @Nullable Long paymentId, @Nullable String chargeId) {
		this(worker, key, attempt, instance, phase, start, end, status, replayed, problemType, bodyHash, error,
				requestHash, paymentId, chargeId, false);
	}

	boolean isSuccess() {
		return this.status != null && this.status >= 200 && this.status < 300 && !isWorkGoingOn();
	}

	/**
	 * Return whether this answer ends the logical payment: a 2xx or a final 4xx, not the state of
	 * accepted work.
	 * @return whether no retry follows
	 */
	boolean isFinal() {
		return this.status != null && !SoakClient.RETRYABLE.test(this.status) && !isWorkGoingOn()
				&& !(this.poll && this.status == 404);
	}

	/**
	 * Return whether this answer only says that an accepted payment's work goes on, or stopped: a
	 * {@code 202}, or a state read from its status link rather than its stored response.
	 * @return whether the answer is no payment's
	 */
	boolean isWorkGoingOn() {
		return this.status != null && (this.status == 202 || (this.poll && !this.replayed));
	}

}
