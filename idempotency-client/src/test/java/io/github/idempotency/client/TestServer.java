package io.github.idempotency.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP server on a free loopback port whose behaviour each test scripts per attempt,
 * recording every request it receives and the effects it performs per key.
 */
final class TestServer implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private final Map<String, AtomicInteger> effects = new ConcurrentHashMap<>();

	private TestServer(Behaviour behaviour) throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", (exchange) -> handle(exchange, behaviour));
		this.server.start();
	}

	static TestServer start(Behaviour behaviour) throws IOException {
		return new TestServer(behaviour);
	}

	private void handle(HttpExchange exchange, Behaviour behaviour) throws IOException {
		try {
			byte[] requestBody = exchange.getRequestBody().readAllBytes();
			Received request = new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
					exchange.getRequestHeaders().getFirst("Idempotency-Key"),
					new String(requestBody, StandardCharsets.UTF_8), this.received.size() + 1);
			this.received.add(request);
			Reply reply;
			try {
				reply = behaviour.reply(request, this);
			}
			catch (Exception ex) {
				reply = Reply.of(500, "handler failed: " + ex);
			}
			byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
			reply.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
			exchange.sendResponseHeaders(reply.status(), (body.length > 0) ? body.length : -1);
			if (body.length > 0) {
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(body);
				}
			}
		}
		catch (IOException ex) {
			// the client gave up on this exchange (e.g. after its read timeout)
		}
		finally {
			exchange.close();
		}
	}

	URI uri(String path) {
		return URI.create("http://" + this.server.getAddress().getHostString() + ":"
				+ this.server.getAddress().getPort() + path);
	}

	List<Received> received() {
		return List.copyOf(this.received);
	}

	List<String> keysSeen() {
		return this.received.stream().map(Received::key).toList();
	}

	int recordEffect(String key) {
		return this.effects.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
	}

	int effectsFor(String key) {
		AtomicInteger count = this.effects.get(key);
		return (count != null) ? count.get() : 0;
	}

	int totalEffects() {
		return this.effects.values().stream().mapToInt(AtomicInteger::get).sum();
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	/**
	 * What the server answers to one request.
	 */
	@FunctionalInterface
	interface Behaviour {

		Reply reply(Received request, TestServer server) throws Exception;

	}

	/**
	 * A request as the server saw it; {@code number} counts every request, starting at 1.
	 */
	record Received(String method, String path, String key, String body, int number) {

	}

	/**
	 * A scripted response.
	 */
	record Reply(int status, Map<String, String> headers, String body) {

		static Reply of(int status, String body) {
			return new Reply(status, Map.of("Content-Type", "text/plain"), body);
		}

		Reply withHeader(String name, String value) {
			Map<String, String> headers = new LinkedHashMap<>(this.headers);
			headers.put(name, value);
			return new Reply(this.status, headers, this.body);
		}

	}

}
