package io.github.idempotency.engine;

import io.github.idempotency.InvalidSequenceException;

import java.math.BigInteger;

import org.jspecify.annotations.Nullable;

/**
 * The scope and sequence number of one call of an {@code @IdempotentSequence} operation.
 *
 * @param scope the scope, at most 255 characters
 * @param number the sequence number, zero or more
 */
public record SequenceNumber(String scope, long number) {

	/**
	 * The longest scope a store keeps.
	 */
	public static final int MAX_SCOPE_LENGTH = 255;

	/**
	 * Read the scope and number that a call's expressions yielded.
	 * @param scope what the scope expression yielded
	 * @param number what the sequence expression yielded: a whole number or its decimal text
	 * @return the sequence number
	 * @throws InvalidSequenceException if either is missing or invalid
	 */
	public static SequenceNumber of(@Nullable Object scope, @Nullable Object number) {
		String scopeText = (scope != null) ? scope.toString() : "";
		if (scopeText.isEmpty()) {
			throw new InvalidSequenceException("This operation orders its calls by a sequence number per scope, and "
					+ "this call yields no scope.");
		}
		if (scopeText.length() > MAX_SCOPE_LENGTH) {
			throw new InvalidSequenceException("The sequence scope of this call is longer than " + MAX_SCOPE_LENGTH
					+ " characters.");
		}
		return new SequenceNumber(scopeText, number(number));
	}

	private static long number(@Nullable Object number) {
		try {
			long value;
			if (number instanceof Long || number instanceof Integer || number instanceof Short
					|| number instanceof Byte) {
				value = ((Number) number).longValue();
			}
			else if (number instanceof BigInteger big) {
				value = big.longValueExact();
			}
			else if (number instanceof CharSequence text && !text.isEmpty()
					&& text.chars().allMatch((c) -> c >= '0' && c <= '9')) {
				value = Long.parseLong(text.toString());
			}
			else {
				throw new InvalidSequenceException("This operation orders its calls by a sequence number, and this "
						+ "call yields " + ((number != null) ? "no whole number" : "none") + ".");
			}
			if (value < 0) {
				throw new InvalidSequenceException("A sequence number must not be negative.");
			}
			return value;
		}
		catch (ArithmeticException | NumberFormatException ex) {
			throw new InvalidSequenceException("The sequence number of this call is too large.");
		}
	}

}
