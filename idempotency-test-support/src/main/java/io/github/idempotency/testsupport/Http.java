package io.github.idempotency.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A minimal HTTP/1.1 client for tests that need raw response bytes and exact headers.
 */
public final class Http {

	private static final HttpClient CLIENT = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(5))
		.version(HttpClient.Version.HTTP_1_1)
		.build();

	private final String baseUrl;

	public Http(int port) {
		this.baseUrl = "http://localhost:" + port;
	}

	public Request post(String path) {
		return new Request(URI.create(this.baseUrl + path), "POST");
	}

	public Request get(String path) {
		return new Request(URI.create(this.baseUrl + path), "GET");
	}

	public Request patch(String path) {
		return new Request(URI.create(this.baseUrl + path), "PATCH");
	}

	/**
	 * Return a response body as UTF-8 text.
	 * @param response the response
	 * @return the body
	 */
	public static String text(HttpResponse<byte[]> response) {
		return new String(response.body(), StandardCharsets.UTF_8);
	}

	/**
	 * A request being built.
	 */
	public static final class Request {

		private final HttpRequest.Builder builder;

		private final String method;

		private byte[] body = new byte[0];

		Request(URI uri, String method) {
			this.builder = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60));
			this.method = method;
		}

		public Request header(String name, String value) {
			this.builder.header(name, value);
			return this;
		}

		public Request key(String key) {
			return header("Idempotency-Key", key);
		}

		public Request tenant(String tenant) {
			return header("X-Tenant-Id", tenant);
		}

		public Request json(String json) {
			return body("application/json", json.getBytes(StandardCharsets.UTF_8));
		}

		public Request body(String contentType, byte[] body) {
			this.builder.header("Content-Type", contentType);
			this.body = body;
			return this;
		}

		public HttpResponse<byte[]> send() {
			try {
				return CLIENT.send(build(), HttpResponse.BodyHandlers.ofByteArray());
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

		public CompletableFuture<HttpResponse<byte[]>> sendAsync() {
			return CLIENT.sendAsync(build(), HttpResponse.BodyHandlers.ofByteArray());
		}

		private HttpRequest build() {
			return this.builder
				.method(this.method, (this.body.length > 0) ? HttpRequest.BodyPublishers.ofByteArray(this.body)
						: HttpRequest.BodyPublishers.noBody())
				.build();
		}

	}

}
