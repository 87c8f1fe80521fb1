package io.github.idempotency;

/**
 * Computes the fingerprint that tells a genuine retry from a different request reusing its key.
 */
@FunctionalInterface
public interface RequestFingerprinter {

	/**
	 * Return the fingerprint of a request.
	 * @param request the request
	 * @return the fingerprint, at most 64 characters
	 * @throws IdempotencyException (a {@code 400} problem) if the body cannot be fingerprinted
	 * unambiguously
	 */
	String fingerprint(FingerprintRequest request);

}
