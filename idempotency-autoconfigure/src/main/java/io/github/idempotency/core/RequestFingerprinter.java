package io.github.idempotency.core;

/**
 * Computes the fingerprint that tells a genuine retry from a different request reusing its key.
 */
@FunctionalInterface
public interface RequestFingerprinter {

	/**
	 * Return the fingerprint of a request.
	 * @param request the request
	 * @return the fingerprint, at most 64 characters
	 * @throws MalformedRequestBodyException if the body cannot be fingerprinted unambiguously
	 */
	String fingerprint(FingerprintRequest request);

}
