package io.github.idempotency.sample.fingerprint;

/**
 * An operation whose idempotency key is a canonical hash of its request body, so that two bodies
 * with the same key are the same request however their JSON is laid out or their unordered lists
 * are ordered.
 */
public interface BodyDerivedKey {

	/**
	 * Return the name of the operation.
	 * @return the operation name
	 */
	String operation();

	/**
	 * Return the key a request body yields.
	 * @param body the request body
	 * @return the key, or {@code null} if the body yields none (it is then fingerprinted as is)
	 */
	String keyOf(byte[] body);

}
