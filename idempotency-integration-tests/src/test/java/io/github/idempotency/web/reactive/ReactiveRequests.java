package io.github.idempotency.web.reactive;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.awaitility.core.ConditionTimeoutException;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.web.servlet.WebTestApplication.Gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Requests the WebFlux tests send beyond the HTTP client's: a request whose client goes away, a
 * response read off a socket, and a storm of one key across two instances.
 */
final class ReactiveRequests {

	private static final Pattern CONTENT_LENGTH = Pattern.compile("(?i)content-length: *(\\d+)");

	private ReactiveRequests() {
	}

	/**
	 * Send a JSON POST on a socket of its own, which the caller closes to go away mid-request.
	 * @param port the server's port
	 * @param path the path
	 * @param key the idempotency key
	 * @param body the JSON body
	 * @param headers more header lines
	 * @return the socket
	 */
	static Socket send(int port, String path, String key, String body, String... headers) throws IOException {
		Socket socket = new Socket("127.0.0.1", port);
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		StringBuilder request = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
				+ "Content-Type: application/json\r\nIdempotency-Key: " + key + "\r\n");
		for (String header : headers) {
			request.append(header).append("\r\n");
		}
		request.append("Content-Length: ").append(bytes.length).append("\r\n\r\n");
		OutputStream out = socket.getOutputStream();
		out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
		out.write(bytes);
		out.flush();
		return socket;
	}

	/**
	 * Read one response from a socket's input: its head, whose first line is the status line, and
	 * its body, skipped by its {@code Content-Length}.
	 * @param input the socket's input
	 * @return the response's head
	 * @throws IOException if the connection closes before the response ends
	 */
	static String readResponse(InputStream input) throws IOException {
		StringBuilder head = new StringBuilder();
		while (head.indexOf("\r\n\r\n") < 0) {
			int next = input.read();
			if (next < 0) {
				throw new EOFException("The connection closed after: " + head);
			}
			head.append((char) next);
		}
		Matcher length = CONTENT_LENGTH.matcher(head);
		input.readNBytes(length.find() ? Integer.parseInt(length.group(1)) : 0);
		return head.toString();
	}

	/**
	 * Send 64 requests of one key to {@code /waiting}, alternately to two instances, whose gates
	 * hold the work of the one that runs until the 63 others are answered; then check that they
	 * were one 200 and 63 409s, one effect, and that a retry replays.
	 * @param http the first instance
	 * @param gate its gate
	 * @param second the second instance
	 * @param value the request's value, unique to the storm
	 * @param effects counts the effects of the value
	 */
	static void stormOfOneKey(Http http, Gate gate, ConfigurableApplicationContext second, String value,
			LongSupplier effects) {
		Gate secondGate = second.getBean(Gate.class);
		Http secondHttp = new Http(((WebServerApplicationContext) second).getWebServer().getPort());
		String body = "{\"value\":\"" + value + "\"}";
		gate.close();
		secondGate.close();
		try {
			List<CompletableFuture<HttpResponse<byte[]>>> responses = new ArrayList<>();
			for (int i = 0; i < 64; i++) {
				Http instance = (i % 2 == 0) ? http : secondHttp;
				responses.add(instance.post("/waiting").key("storm-" + value).json(body).sendAsync());
			}
			try {
				// Within the client's own timeout, so that a request that hangs is seen hanging.
				await().atMost(Duration.ofSeconds(45))
					.until(() -> responses.stream().filter(CompletableFuture::isDone).count() == 63);
			}
			catch (ConditionTimeoutException ex) {
				throw new AssertionError("Of 64 requests these ended: " + responses.stream()
					.filter(CompletableFuture::isDone)
					.map((response) -> response.handle((ended, failure) -> (failure != null)
							? failure.getClass().getSimpleName() : String.valueOf(ended.statusCode()))
						.join())
					.collect(Collectors.groupingBy(Function.identity(), Collectors.counting())) + "; "
						+ Http.serverThreads(), ex);
			}
			gate.open();
			secondGate.open();
			Map<Integer, Long> statuses = responses.stream()
				.map((response) -> response.join().statusCode())
				.collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
			String others = responses.stream()
				.map(CompletableFuture::join)
				.filter((response) -> response.statusCode() != 200 && response.statusCode() != 409)
				.map((response) -> response.statusCode() + " " + new String(response.body(), StandardCharsets.UTF_8))
				.collect(Collectors.joining("; "));
			assertThat(statuses).as("statuses; the others answered: %s", others)
				.isEqualTo(Map.of(200, 1L, 409, 63L));
			assertThat(effects.getAsLong()).isEqualTo(1);
			HttpResponse<byte[]> replay = secondHttp.post("/waiting").key("storm-" + value).json(body).send();
			assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		}
		finally {
			gate.open();
			secondGate.open();
		}
	}

}
