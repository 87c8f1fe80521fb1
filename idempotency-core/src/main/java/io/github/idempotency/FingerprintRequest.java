package io.github.idempotency;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The parts of a request that identify it for {@link RequestFingerprinter}.
 *
 * @param operation the operation name
 * @param path the request path, or another stable target for requests without one
 * @param query the query string, or {@code null}
 * @param contentType the body's content type, or {@code null}
 * @param body the body bytes, possibly empty
 */
public record FingerprintRequest(String operation, String path, @Nullable String query, @Nullable String contentType,
		byte[] body) {

	public FingerprintRequest {
		Objects.requireNonNull(operation, "operation");
		Objects.requireNonNull(path, "path");
		Objects.requireNonNull(body, "body");
	}

}
