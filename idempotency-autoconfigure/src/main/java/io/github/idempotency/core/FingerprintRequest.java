package io.github.idempotency.core;

import java.util.Objects;

/**
 * The parts of a request that identify it for {@link RequestFingerprinter}.
 *
 * @param operation the operation name
 * @param path the request path, or another stable target for requests without one
 * @param query the query string, or {@code null}
 * @param contentType the body's content type, or {@code null}
 * @param body the body bytes, possibly empty
 */
public record FingerprintRequest(String operation, String path, String query, String contentType, byte[] body) {

	public FingerprintRequest {
		Objects.requireNonNull(operation, "operation");
		Objects.requireNonNull(path, "path");
		Objects.requireNonNull(body, "body");
	}

}
