package io.github.idempotency.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

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
		HttpRequest request = HttpRequest
			.newBuilder(this.uri.resolve("/control/await-call?min-latency-ms=" + minLatencyMillis + "&timeout-ms="
					+ timeoutMillis))
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
		return new Arrival(arrival.get("at").asLong(), arrival.get("latencyMs").asLong());
	}

	/**
	 * A charge that arrived.
	 *
	 * @param at when it arrived, epoch milliseconds
	 * @param latencyMillis how long the gateway will take to answer it
	 */
	record Arrival(long at, long latencyMillis) {

	}

}
