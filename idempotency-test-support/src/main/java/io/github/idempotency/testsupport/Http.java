package io.github.idempotency.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

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
	 * Return where the server threads of this JVM are, in one line, and print all threads' stacks
	 * to the standard error, for a test whose requests did not end.
	 * @return the busy server threads, with the frames they are in
	 */
	public static String serverThreads() {
		return ServerThreads.digest();
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
			catch (HttpTimeoutException ex) {
				throw new UncheckedIOException(withServerThreads(ex));
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
			return CLIENT.sendAsync(build(), HttpResponse.BodyHandlers.ofByteArray()).handle((response, failure) -> {
				if (failure == null) {
					return response;
				}
				Throwable cause = (failure instanceof CompletionException) ? failure.getCause() : failure;
				if (cause instanceof HttpTimeoutException timeout) {
					throw new CompletionException(withServerThreads(timeout));
				}
				throw (failure instanceof CompletionException completion) ? completion
						: new CompletionException(failure);
			});
		}

		/**
		 * A request that never ends is a hang in the server: say where its threads are.
		 */
		private static HttpTimeoutException withServerThreads(HttpTimeoutException timeout) {
			return new HttpTimeoutException(timeout.getMessage() + "; " + ServerThreads.digest());
		}

		private HttpRequest build() {
			return this.builder
				.method(this.method, (this.body.length > 0) ? HttpRequest.BodyPublishers.ofByteArray(this.body)
						: HttpRequest.BodyPublishers.noBody())
				.build();
		}

	}

}
