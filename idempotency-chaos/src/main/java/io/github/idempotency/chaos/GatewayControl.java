package io.github.idempotency.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The nemesis's side of the external gateway's control ({@link ChaosGateway}): it learns when a
 * charge arrives.
 */
final class GatewayControl {

	private final URI uri;

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(1))
		.build();

	/**
	 * Create the control of a gateway.
	 * @param uri the gateway's base URL, as reached from the soak
	 */
	GatewayControl(URI uri) {
		this.uri = uri;
	}

	/**
	 * Wait until a charge arrives at the gateway that will take at least the given time.
	 * @param minLatencyMillis the shortest charge to wait for
	 * @param timeoutMillis how long to wait
	 * @return the charge's arrival, or {@code null} if none arrived in time
	 */
	@Nullable Arrival awaitCall(long minLatencyMillis, long timeoutMillis) throws IOException, InterruptedException {
		return arrival("/control/await-call?min-latency-ms=" + minLatencyMillis + "&timeout-ms=" + timeoutMillis,
				timeoutMillis);
	}

	/**
	 * Have the gateway kill a process the moment a charge arrives that will take at least the
	 * given time, on the thread that received it.
	 * @param minLatencyMillis the shortest charge to wait for
	 * @param timeoutMillis how long to wait
	 * @param pids the processes, the first alive of which is killed
	 * @return the charge's arrival and the process killed, or {@code null} if none arrived in time
	 */
	@Nullable Arrival crashOnCall(long minLatencyMillis, long timeoutMillis, List<Long> pids)
			throws IOException, InterruptedException {
		return arrival("/control/crash-on-call?min-latency-ms=" + minLatencyMillis + "&timeout-ms=" + timeoutMillis
				+ "&pids=" + pids.stream().map(String::valueOf).collect(Collectors.joining(",")), timeoutMillis);
	}

	private @Nullable Arrival arrival(String path, long timeoutMillis) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(this.uri.resolve(path))
			.timeout(Duration.ofMillis(timeoutMillis + 5000))
			.GET()
			.build();
		HttpResponse<byte[]> response = this.http.send(request, HttpResponse.BodyHandlers.ofByteArray());
		if (response.statusCode() == 204) {
			return null;
		}
		if (response.statusCode() != 200) {
			throw new IOException("The gateway's control answered " + response.statusCode());
		}
		JsonNode arrival = History.JSON.readTree(response.body());
		return new Arrival(arrival.get("at").asLong(), arrival.get("latencyMs").asLong(),
				arrival.hasNonNull("killed") ? arrival.get("killed").asLong() : null,
				arrival.hasNonNull("killedAt") ? arrival.get("killedAt").asLong() : null);
	}

	/**
	 * A charge that arrived.
	 *
	 * @param at when it arrived, epoch milliseconds
	 * @param latencyMillis how long the gateway will take to answer it
	 * @param killed the process the gateway killed, or {@code null}
	 * @param killedAt when it killed it, epoch milliseconds, or {@code null}
	 */
	record Arrival(long at, long latencyMillis, @Nullable Long killed, @Nullable Long killedAt) {

	}

}
