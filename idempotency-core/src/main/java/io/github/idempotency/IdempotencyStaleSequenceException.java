package io.github.idempotency;

import org.springframework.http.HttpStatus;


/**
 * Thrown when a call's sequence number is lower than the highest one processed for its scope
 * ({@code 409}): the call did not run and nothing was stored; its problem states both numbers,
 * as the properties {@code sequence} and {@code highestSequence}. Catch it as an
 * {@link IdempotencyException} whose problem type ends in {@code stale-sequence}.
 */
public class IdempotencyStaleSequenceException extends IdempotencyException {

	/**
	 * The last segment of the problem type.
	 */
	public static final String TYPE = "stale-sequence";

	private final long sequence;

	private final long highestSequence;

	public IdempotencyStaleSequenceException(long sequence, long highestSequence) {
		super(HttpStatus.CONFLICT, TYPE, "Stale sequence number",
				"Sequence number " + sequence + " is lower than " + highestSequence
						+ ", the highest one processed for this scope; it is not applied.",
				null, null);
		this.sequence = sequence;
		this.highestSequence = highestSequence;
		getBody().setProperty("sequence", sequence);
		getBody().setProperty("highestSequence", highestSequence);
	}

	/**
	 * Return the sequence number of the refused call.
	 * @return the number
	 */
	public long getSequence() {
		return this.sequence;
	}

	/**
	 * Return the highest number processed for the call's scope.
	 * @return the number, higher than {@link #getSequence()}
	 */
	public long getHighestSequence() {
		return this.highestSequence;
	}

}
