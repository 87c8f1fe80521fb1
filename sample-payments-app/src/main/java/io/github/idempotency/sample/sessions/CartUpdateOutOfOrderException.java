package io.github.idempotency.sample.sessions;

/**
 * Thrown when a cart update's number is lower than that of an update the cart already applied.
 * The starter refuses such an update before it runs; the cart checks again, under its session's
 * lock, for stores that run it outside the transaction of the sequence check (LEASED) and for a
 * scope the starter no longer keeps.
 */
public class CartUpdateOutOfOrderException extends RuntimeException {

	private final long sequence;

	private final long highestSequence;

	public CartUpdateOutOfOrderException(long sequence, long highestSequence) {
		super("Sequence number " + sequence + " is lower than " + highestSequence
				+ ", the highest one applied to this cart; it is not applied.");
		this.sequence = sequence;
		this.highestSequence = highestSequence;
	}

	public long getSequence() {
		return this.sequence;
	}

	public long getHighestSequence() {
		return this.highestSequence;
	}

}
