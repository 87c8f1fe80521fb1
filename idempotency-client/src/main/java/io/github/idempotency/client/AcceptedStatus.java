package io.github.idempotency.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * A {@code 202 Accepted} or a status answered by the starter's status resource of an accepted
 * request, read whole (it is a few bytes of JSON): the link to poll and the state of the work.
 */
final class AcceptedStatus implements ClientHttpResponse {

	private static final int MAX_BYTES = 8 * 1024;

	private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([a-z]+)\"");

	private static final Pattern HREF = Pattern.compile("\"href\"\\s*:\\s*\"([^\"\\\\]+)\"");

	private final ClientHttpResponse delegate;

	private final InputStream body;

	private final String state;

	private final URI link;

	private AcceptedStatus(ClientHttpResponse delegate, InputStream body, String state, URI link) {
		this.delegate = delegate;
		this.body = body;
		this.state = state;
		this.link = link;
	}

	/**
	 * Read a response as the state of an accepted request, if it is one.
	 * @param response the response: a {@code 202}, or a {@code 200} of a status link
	 * @param requestUri the URI the response answered, against which its link resolves
	 * @return the response, whose body still reads from its start, or {@code null} (the response
	 * is then left unread) when it is a stored response or no JSON
	 * @throws IOException if the body cannot be read
	 */
	static @Nullable AcceptedStatus of(ClientHttpResponse response, URI requestUri) throws IOException {
		int status = response.getStatusCode().value();
		HttpHeaders headers = response.getHeaders();
		if ((status != 202 && status != 200) || "true".equalsIgnoreCase(headers.getFirst("Idempotent-Replayed"))
				|| headers.getContentType() == null || !headers.getContentType().getSubtype().equals("json")) {
			return null;
		}
		if (status == 202 && headers.getLocation() == null) {
			return null;
		}
		InputStream rest = response.getBody();
		byte[] head = rest.readNBytes(MAX_BYTES);
		InputStream body = new SequenceInputStream(new ByteArrayInputStream(head), rest);
		String json = new String(head, StandardCharsets.UTF_8);
		Matcher state = STATUS.matcher(json);
		Matcher href = HREF.matcher(json);
		if (!state.find() || !href.find()) {
			return new AcceptedStatus(response, body, "", requestUri);
		}
		return new AcceptedStatus(response, body, state.group(1), requestUri.resolve(href.group(1)));
	}

	/**
	 * Return whether this is the state of an accepted request at all.
	 * @return whether the body named a state and a link
	 */
	boolean isState() {
		return !this.state.isEmpty();
	}

	/**
	 * Return whether the work still runs: poll again.
	 * @return whether the state is {@code running}
	 */
	boolean isRunning() {
		return "running".equals(this.state);
	}

	/**
	 * Return the status link.
	 * @return the link, resolved
	 */
	URI link() {
		return this.link;
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
	public InputStream getBody() {
		return this.body;
	}

	@Override
	public void close() {
		this.delegate.close();
	}

}
