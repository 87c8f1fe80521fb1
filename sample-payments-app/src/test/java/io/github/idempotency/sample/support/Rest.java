package io.github.idempotency.sample.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Sends the {@code PUT} and {@code DELETE} requests that {@link io.github.idempotency.testsupport.Http}
 * has no builder for.
 */
public final class Rest {

	private static final HttpClient CLIENT = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(5))
		.version(HttpClient.Version.HTTP_1_1)
		.build();

	private final String baseUrl;

	public Rest(int port) {
		this.baseUrl = "http://localhost:" + port;
	}

	/**
	 * Send a JSON {@code PUT}.
	 * @param path the path
	 * @param json the body
	 * @return the response
	 */
	public HttpResponse<byte[]> put(String path, String json) {
		return send(request(path).header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)));
	}

	/**
	 * Send a {@code DELETE}.
	 * @param path the path
	 * @return the response
	 */
	public HttpResponse<byte[]> delete(String path) {
		return send(request(path).DELETE());
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create(this.baseUrl + path)).timeout(Duration.ofSeconds(60));
	}

	private static HttpResponse<byte[]> send(HttpRequest.Builder request) {
		try {
			return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
