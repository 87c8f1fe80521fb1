package io.github.idempotency.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpResponse;

/**
 * A {@code 409} response whose body has been looked at to tell whether the key is in progress,
 * the only conflict that a retry can outlast: a stale sequence, a lost lease or a conflict that
 * the server stored as the key's outcome answers the same however often it is retried. The head
 * of the body that was read is given back to whoever reads the response.
 */
final class ConflictResponse implements ClientHttpResponse {

	/**
	 * The last segment of the problem type with which a server answers a key in progress.
	 */
	static final String IN_PROGRESS = "in-progress";

	private static final int HEAD_BYTES = 8 * 1024;

	private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"\\\\]*)\"");

	private final ClientHttpResponse delegate;

	private final @Nullable InputStream body;

	private final boolean inProgress;

	private ConflictResponse(ClientHttpResponse delegate, @Nullable InputStream body, boolean inProgress) {
		this.delegate = delegate;
		this.body = body;
		this.inProgress = inProgress;
	}

	/**
	 * Read the head of a {@code 409} response's body to tell whether its key is in progress.
	 * @param response the response
	 * @return the response, whose body still reads from its start
	 * @throws IOException if the body cannot be read
	 */
	static ConflictResponse of(ClientHttpResponse response) throws IOException {
		HttpHeaders headers = response.getHeaders();
		if (!isJson(headers) || "true".equalsIgnoreCase(headers.getFirst("Idempotent-Replayed"))) {
			// A replay is the key's stored outcome: it does not change.
			return new ConflictResponse(response, null, false);
		}
		InputStream body = response.getBody();
		byte[] head = body.readNBytes(HEAD_BYTES);
		return new ConflictResponse(response, new SequenceInputStream(new ByteArrayInputStream(head), body),
				isInProgress(new String(head, StandardCharsets.UTF_8)));
	}

	private static boolean isJson(HttpHeaders headers) {
		try {
			MediaType type = headers.getContentType();
			return type != null && (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json"));
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	private static boolean isInProgress(String json) {
		Matcher type = TYPE.matcher(json);
		if (!type.find()) {
			return false;
		}
		String uri = type.group(1);
		int lastSegment = Math.max(uri.lastIndexOf(':'), uri.lastIndexOf('/')) + 1;
		return uri.substring(lastSegment).equals(IN_PROGRESS);
	}

	/**
	 * Return whether the response is the problem of a key in progress.
	 * @return whether a retry may get another answer
	 */
	boolean isInProgress() {
		return this.inProgress;
	}

	@Override
	public HttpStatusCode getStatusCode() throws IOException {
		return this.delegate.getStatusCode();
	}

	@Override
	public String getStatusText() throws IOException {
		return this.delegate.getStatusText();
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.delegate.getHeaders();
	}

	@Override
	public InputStream getBody() throws IOException {
		return (this.body != null) ? this.body : this.delegate.getBody();
	}

	@Override
	public void close() {
		this.delegate.close();
	}

}
