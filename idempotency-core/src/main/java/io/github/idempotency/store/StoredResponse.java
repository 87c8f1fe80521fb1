package io.github.idempotency.store;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A response as stored for replay: status, allow-listed headers and the body bytes.
 *
 * @param status the HTTP status
 * @param headers the stored headers, in order, names as first written
 * @param body the body, byte for byte
 */
public record StoredResponse(int status, Map<String, List<String>> headers, byte[] body) {

	public StoredResponse {
		Objects.requireNonNull(headers, "headers");
		Objects.requireNonNull(body, "body");
	}

	@Override
	public boolean equals(Object other) {
		return (other instanceof StoredResponse that) && this.status == that.status
				&& this.headers.equals(that.headers) && Arrays.equals(this.body, that.body);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.status, this.headers, Arrays.hashCode(this.body));
	}

	@Override
	public String toString() {
		return "StoredResponse[status=" + this.status + ", headers=" + this.headers.keySet() + ", body="
				+ this.body.length + " bytes]";
	}

}
