package io.github.idempotency;

import org.jspecify.annotations.Nullable;

/**
 * Tells final results, which are stored and replayed, from transient failures, which release the
 * key for another attempt.
 */
public interface OutcomeClassifier {

	/**
	 * Classify the end of an HTTP request.
	 * @param status the response status
	 * @param failure the exception the handler threw, or {@code null}
	 * @return the disposition
	 */
	Disposition classify(int status, @Nullable Throwable failure);

	/**
	 * Classify the end of a method call outside HTTP.
	 * @param failure the exception the method threw, or {@code null} if it returned
	 * @return the disposition
	 */
	Disposition classify(@Nullable Throwable failure);

}
