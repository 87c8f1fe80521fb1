package io.github.idempotency.chaos;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The soak's external payment gateway, a process of its own: it charges at most once per
 * idempotency key and records every charge call durably, so that the checker can count the
 * charges and see two claims of one key calling at the same time.
 * <p>
 * {@code POST /charges} with the gateway's idempotency key in {@code Idempotency-Key}, the
 * caller's fencing token in {@code Fencing-Token} and a JSON body ({@code customerId},
 * {@code amount}, {@code currency}): the first call for a key makes the charge, every later one
 * gets the same charge. Each call takes a time drawn from the seed, the key and the token:
 * {@code --latency-ms} (by default 50 to 300 ms), or {@code --slow-latency-ms} for a customer
 * whose id starts with {@code slow-}; customers starting with {@code decline-} are declined.
 * {@code POST /charges/<id>/capture} with the same headers captures the key's charge, in
 * {@code --latency-ms}. Before answering, each call (charge or capture, key, token, when it
 * arrived and when it ended, the charge, whether it made it) is appended to the log file and
 * forced to the disk ({@link GatewayLog}); a restarted gateway reads its charges back from it.
 * <p>
 * {@code GET /control/await-call?min-latency-ms=N&timeout-ms=M} answers as soon as a charge call
 * that will take at least N ms arrives (200, with its key and time), or 204 after M ms.
 * {@code GET /control/crash-on-call?min-latency-ms=N&timeout-ms=M&pids=P,...} does the same, and
 * when such a call arrives first kills the first of the given processes that is alive, with
 * {@code SIGKILL}, on the thread that received the call: that is how the nemesis crashes the
 * database the moment a charge arrives, a few milliseconds after its claim committed, before the
 * next synchronous commit of any session writes that claim to the disk (a wake-up of another
 * process would come too late). {@code GET /health} answers 200.
 * <p>
 * Arguments: {@code --port=8090 --log=FILE [--seed=N] [--latency-ms=50-300]
 * [--slow-latency-ms=800-1200]}.
 */
public final class ChaosGateway {

	static final String SLOW_PREFIX = "slow-";

	static final String DECLINE_PREFIX = "decline-";

	private final HttpServer server;

	private final ExecutorService executor;

	private final FileChannel log;

	private final long seed;

	private final int[] latency;

	private final int[] slowLatency;

	private final Map<String, GatewayLog.Charge> charges = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

	private final List<Waiter> waiters = new ArrayList<>();

	ChaosGateway(InetSocketAddress address, Path log, long seed, int[] latency, int[] slowLatency) throws IOException {
		this.seed = seed;
		this.latency = latency;
		this.slowLatency = slowLatency;
		if (Files.exists(log)) {
			GatewayLog earlier = GatewayLog.read(log);
			earlier.charges().forEach((charge) -> this.charges.put(charge.scopedKey(), charge));
			earlier.calls()
				.stream()
				.filter((call) -> GatewayLog.CHARGE.equals(call.kind()))
				.forEach((call) -> this.calls.computeIfAbsent(call.scopedKey(), (key) -> new AtomicInteger())
					.incrementAndGet());
		}
		this.log = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.APPEND);
		this.executor = Executors.newCachedThreadPool((runnable) -> {
			Thread thread = new Thread(runnable, "gateway");
			thread.setDaemon(true);
			return thread;
		});
		this.server = HttpServer.create(address, 256);
		this.server.setExecutor(this.executor);
		this.server.createContext("/charges", this::charge);
		this.server.createContext("/control/await-call", this::awaitCall);
		this.server.createContext("/control/crash-on-call", this::awaitCall);
		this.server.createContext("/health", (exchange) -> answer(exchange, 200, null));
	}

	public static void main(String[] args) throws IOException {
		Options options = new Options(args);
		ChaosGateway gateway = new ChaosGateway(new InetSocketAddress(Integer.parseInt(options.get("port", "8090"))),
				Path.of(options.get("log")), Long.parseLong(options.get("seed", "0")),
				range(options.get("latency-ms", "50-300")), range(options.get("slow-latency-ms", "800-1200")));
		gateway.start();
		System.out.printf("chaos gateway: listening on %s, log %s%n", gateway.port(), options.get("log"));
	}

	void start() {
		this.server.start();
	}

	int port() {
		return this.server.getAddress().getPort();
	}

	/**
	 * Wait until at least {@code count} control requests wait for a call, for tests that must send
	 * a charge only once the control listens.
	 * @return whether they did within the timeout
	 */
	boolean awaitWaiting(int count, long timeoutMillis) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
		synchronized (this.waiters) {
			while (this.waiters.size() < count) {
				long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
				if (left <= 0) {
					return false;
				}
				this.waiters.wait(left);
			}
			return true;
		}
	}

	void stop() throws IOException {
		this.server.stop(0);
		this.executor.shutdownNow();
		this.log.close();
	}

	private void charge(HttpExchange exchange) throws IOException {
		long start = System.currentTimeMillis();
		try (exchange) {
			if (!"POST".equals(exchange.getRequestMethod())) {
				answer(exchange, 405, null);
				return;
			}
			String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
			String token = exchange.getRequestHeaders().getFirst("Fencing-Token");
			String path = exchange.getRequestURI().getPath();
			if (path.endsWith("/capture")) {
				capture(exchange, start, key, (token != null) ? token : "none", path);
				return;
			}
			JsonNode body = History.JSON.readTree(exchange.getRequestBody().readAllBytes());
			if (key == null || key.isBlank() || !body.hasNonNull("customerId")) {
				answer(exchange, 400, null);
				return;
			}
			String customerId = body.get("customerId").asString();
			String caller = (token != null) ? token : "none";
			long millis = latency(key, caller, customerId);
			arrived(key, millis, start);
			boolean[] created = new boolean[1];
			GatewayLog.Charge charge = this.charges.computeIfAbsent(key, (k) -> {
				created[0] = true;
				return new GatewayLog.Charge(k, "ch_" + UUID.randomUUID().toString().replace("-", ""),
						customerId.startsWith(DECLINE_PREFIX) ? "DECLINED" : "SUCCEEDED");
			});
			int attempts = this.calls.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
			sleep(millis);
			record(new GatewayLog.Call(GatewayLog.CHARGE, key, caller, start, System.currentTimeMillis(), charge.id(),
					created[0], charge.status(), millis));
			ObjectNode answer = History.JSON.createObjectNode();
			answer.put("id", charge.id());
			answer.put("status", charge.status());
			answer.put("attempts", attempts);
			answer(exchange, 200, answer);
		}
	}

	private void capture(HttpExchange exchange, long start, @Nullable String key, String token, String path)
			throws IOException {
		exchange.getRequestBody().readAllBytes();
		GatewayLog.Charge charge = (key != null) ? this.charges.get(key) : null;
		if (charge == null || !path.equals("/charges/" + charge.id() + "/capture")) {
			answer(exchange, 404, null);
			return;
		}
		long millis = latency(key + "/capture", token, "");
		sleep(millis);
		record(new GatewayLog.Call(GatewayLog.CAPTURE, key, token, start, System.currentTimeMillis(), charge.id(), false,
				charge.status(), millis));
		ObjectNode answer = History.JSON.createObjectNode();
		answer.put("id", charge.id());
		answer.put("status", charge.status());
		answer.put("attempts", this.calls.getOrDefault(key, new AtomicInteger()).get());
		answer(exchange, 200, answer);
	}

	/**
	 * The time a call takes: drawn from the seed, the key and the token, so that the same calls
	 * take the same times in another run.
	 */
	private long latency(String key, String token, String customerId) {
		int[] range = customerId.startsWith(SLOW_PREFIX) ? this.slowLatency : this.latency;
		long mixed = this.seed * 0x9E3779B97F4A7C15L + key.hashCode() * 31L + token.hashCode();
		return range[0] + new SplittableRandom(mixed).nextInt(range[1] - range[0] + 1);
	}

	private synchronized void record(GatewayLog.Call call) {
		try {
			byte[] line = (History.JSON.writeValueAsString(call) + "\n").getBytes(StandardCharsets.UTF_8);
			ByteBuffer buffer = ByteBuffer.wrap(line);
			while (buffer.hasRemaining()) {
				this.log.write(buffer);
			}
			this.log.force(false);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void awaitCall(HttpExchange exchange) throws IOException {
		try (exchange) {
			Map<String, String> query = query(exchange.getRequestURI());
			List<Long> pids = new ArrayList<>();
			if (exchange.getRequestURI().getPath().endsWith("/crash-on-call")) {
				for (String pid : query.getOrDefault("pids", "").split(",")) {
					if (!pid.isBlank()) {
						pids.add(Long.parseLong(pid.trim()));
					}
				}
				if (pids.isEmpty()) {
					answer(exchange, 400, null);
					return;
				}
			}
			Waiter waiter = new Waiter(Long.parseLong(query.getOrDefault("min-latency-ms", "0")), pids,
					new CompletableFuture<>());
			synchronized (this.waiters) {
				this.waiters.add(waiter);
				this.waiters.notifyAll();
			}
			ObjectNode arrival;
			try {
				arrival = waiter.arrival().get(Long.parseLong(query.getOrDefault("timeout-ms", "5000")),
						TimeUnit.MILLISECONDS);
			}
			catch (TimeoutException ex) {
				arrival = null;
			}
			catch (Exception ex) {
				Thread.currentThread().interrupt();
				arrival = null;
			}
			finally {
				synchronized (this.waiters) {
					this.waiters.remove(waiter);
				}
			}
			// a charge that arrived as the wait ran out was answered (and may have had its process
			// killed) under the same lock: it is reported, never lost
			if (arrival == null) {
				arrival = waiter.arrival().getNow(null);
			}
			answer(exchange, (arrival != null) ? 200 : 204, arrival);
		}
	}

	private void arrived(String key, long millis, long at) {
		synchronized (this.waiters) {
			for (Waiter waiter : List.copyOf(this.waiters)) {
				if (millis >= waiter.minLatency()) {
					ObjectNode arrival = History.JSON.createObjectNode();
					killFirstAlive(waiter.pids()).ifPresent((pid) -> {
						arrival.put("killed", pid);
						arrival.put("killedAt", System.currentTimeMillis());
					});
					arrival.put("key", key);
					arrival.put("latencyMs", millis);
					arrival.put("at", at);
					waiter.arrival().complete(arrival);
					this.waiters.remove(waiter);
				}
			}
		}
	}

	private static Optional<Long> killFirstAlive(List<Long> pids) {
		for (long pid : pids) {
			Optional<ProcessHandle> process = ProcessHandle.of(pid);
			if (process.isPresent() && process.get().destroyForcibly()) {
				return Optional.of(pid);
			}
		}
		return Optional.empty();
	}

	private static void answer(HttpExchange exchange, int status, @Nullable JsonNode body) throws IOException {
		if (body == null) {
			exchange.sendResponseHeaders(status, -1);
			return;
		}
		byte[] bytes = History.JSON.writeValueAsBytes(body);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	private static Map<String, String> query(URI uri) {
		Map<String, String> values = new ConcurrentHashMap<>();
		String query = uri.getRawQuery();
		if (query != null) {
			for (String pair : query.split("&")) {
				int equals = pair.indexOf('=');
				if (equals > 0) {
					values.put(pair.substring(0, equals), pair.substring(equals + 1));
				}
			}
		}
		return values;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	static int[] range(String range) {
		String[] bounds = range.split("-");
		int low = Integer.parseInt(bounds[0].trim());
		int high = Integer.parseInt(bounds[bounds.length - 1].trim());
		if (low < 0 || high < low) {
			throw new IllegalArgumentException("Not a range of milliseconds: " + range);
		}
		return new int[] { low, high };
	}

	/**
	 * A control request waiting for a call that takes at least its minimum, and the processes
	 * to kill when it arrives (none to only learn of it).
	 */
	private record Waiter(long minLatency, List<Long> pids, CompletableFuture<ObjectNode> arrival) {

	}

}
