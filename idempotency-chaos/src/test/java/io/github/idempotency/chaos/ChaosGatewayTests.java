package io.github.idempotency.chaos;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The soak's external gateway as a real HTTP server on a random port, its log in a temporary
 * directory.
 */
class ChaosGatewayTests {

	private static final int[] LATENCY = { 20, 40 };

	private static final int[] SLOW_LATENCY = { 300, 350 };

	private final HttpClient http = HttpClient.newHttpClient();

	@TempDir
	Path directory;

	private final List<ChaosGateway> started = new ArrayList<>();

	@AfterEach
	void stopTheGateways() throws IOException {
		for (ChaosGateway gateway : this.started) {
			gateway.stop();
		}
	}

	@Test
	void theFirstCallOfAKeyChargesAndEveryLaterOneGetsThatChargeAndEachIsLoggedWithItsToken() throws Exception {
		ChaosGateway gateway = start();
		JsonNode first = charge(gateway, "default:create-payment:k1", "token-a", "c1");
		JsonNode second = charge(gateway, "default:create-payment:k1", "token-b", "c1");
		JsonNode other = charge(gateway, "default:create-payment-async:k2", "token-c", "decline-c2");
		assertThat(second.get("id").asString()).isEqualTo(first.get("id").asString());
		assertThat(second.get("attempts").asInt()).isEqualTo(2);
		assertThat(other.get("id").asString()).isNotEqualTo(first.get("id").asString());
		assertThat(other.get("status").asString()).isEqualTo("DECLINED");
		GatewayLog log = GatewayLog.read(this.directory.resolve("charges.jsonl"));
		assertThat(log.calls()).extracting(GatewayLog.Call::key, GatewayLog.Call::token, GatewayLog.Call::created)
			.containsExactly(tuple("k1", "token-a", true),
					tuple("k1", "token-b", false),
					tuple("k2", "token-c", true));
		assertThat(log.calls()).allSatisfy((call) -> assertThat(call.end() - call.start()).isGreaterThanOrEqualTo(20));
		assertThat(log.calls().get(2).operation()).isEqualTo("create-payment-async");
		assertThat(log.checkedCharges()).containsExactly(
				new DatabaseState.Charge("k1", first.get("id").asString(), "SUCCEEDED", 2),
				new DatabaseState.Charge("k2", other.get("id").asString(), "DECLINED", 1));
	}

	@Test
	void aChargeIsCapturedUnderItsKeyAndTheCaptureIsLoggedButNotCountedAsAnAskForTheCharge() throws Exception {
		ChaosGateway gateway = start();
		JsonNode charge = charge(gateway, "default:create-payment-async:k1", "token-a", "c1");
		HttpResponse<String> captured = post(gateway, "/charges/" + charge.get("id").asString() + "/capture",
				"default:create-payment-async:k1", "token-a");
		HttpResponse<String> wrong = post(gateway, "/charges/ch_other/capture", "default:create-payment-async:k1",
				"token-a");
		assertThat(captured.statusCode()).isEqualTo(200);
		assertThat(History.JSON.readTree(captured.body()).get("id").asString()).isEqualTo(charge.get("id").asString());
		assertThat(wrong.statusCode()).isEqualTo(404);
		GatewayLog log = GatewayLog.read(this.directory.resolve("charges.jsonl"));
		assertThat(log.calls()).extracting(GatewayLog.Call::kind, GatewayLog.Call::token)
			.containsExactly(tuple("charge", "token-a"), tuple("capture", "token-a"));
		assertThat(log.checkedCharges()).singleElement().extracting(DatabaseState.Charge::attempts).isEqualTo(1);
	}

	@Test
	void aRestartedGatewayAnswersWithTheChargesOfItsLog() throws Exception {
		ChaosGateway gateway = start();
		JsonNode first = charge(gateway, "default:create-payment:k1", "token-a", "c1");
		gateway.stop();
		this.started.remove(gateway);
		ChaosGateway restarted = start();
		JsonNode again = charge(restarted, "default:create-payment:k1", "token-b", "c1");
		assertThat(again.get("id").asString()).isEqualTo(first.get("id").asString());
		assertThat(again.get("attempts").asInt()).isEqualTo(2);
		assertThat(GatewayLog.read(this.directory.resolve("charges.jsonl")).charges()).hasSize(1);
	}

	@Test
	void theControlAnswersWhenASlowChargeArrivesWhileItIsStillInsideTheGateway() throws Exception {
		ChaosGateway gateway = start();
		GatewayControl control = new GatewayControl(URI.create("http://127.0.0.1:" + gateway.port()));
		CompletableFuture<GatewayControl.Arrival> arrival = CompletableFuture.supplyAsync(() -> {
			try {
				return control.awaitCall(SLOW_LATENCY[0], 10_000);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		assertThat(gateway.awaitWaiting(1, 10_000)).as("the control listens").isTrue();
		charge(gateway, "default:create-payment:fast", "token-a", "c1");
		assertThat(arrival).isNotDone();
		charge(gateway, "default:create-payment:slow", "token-b", ChaosGateway.SLOW_PREFIX + "c2");
		GatewayControl.Arrival slow = arrival.get();
		assertThat(slow.latencyMillis()).isBetween((long) SLOW_LATENCY[0], (long) SLOW_LATENCY[1]);
		GatewayLog.Call call = GatewayLog.read(this.directory.resolve("charges.jsonl")).calls().get(1);
		assertThat(call.key()).isEqualTo("slow");
		assertThat(slow.at()).isEqualTo(call.start());
		assertThat(call.end() - call.start()).isGreaterThanOrEqualTo(SLOW_LATENCY[0]);
		assertThat(control.awaitCall(0, 100)).isNull();
	}

	@Test
	void theControlKillsTheFirstLivingProcessItWasGivenTheMomentASlowChargeArrives() throws Exception {
		ChaosGateway gateway = start();
		GatewayControl control = new GatewayControl(URI.create("http://127.0.0.1:" + gateway.port()));
		Process victim = new ProcessBuilder("sleep", "60").start();
		try {
			long gone = ProcessHandle.current().pid() + 1_000_000;
			CompletableFuture<GatewayControl.Arrival> arrival = CompletableFuture.supplyAsync(() -> {
				try {
					return control.crashOnCall(SLOW_LATENCY[0], 10_000, List.of(gone, victim.pid()));
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			assertThat(gateway.awaitWaiting(1, 10_000)).as("the control listens").isTrue();
			charge(gateway, "default:create-payment:fast", "token-a", "c1");
			assertThat(victim.isAlive()).isTrue();
			CompletableFuture<JsonNode> slow = CompletableFuture.supplyAsync(() -> {
				try {
					return charge(gateway, "default:create-payment:slow", "token-b", ChaosGateway.SLOW_PREFIX + "c2");
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			GatewayControl.Arrival crash = arrival.get();
			assertThat(crash.killed()).isEqualTo(victim.pid());
			assertThat(victim.waitFor(5, TimeUnit.SECONDS)).isTrue();
			assertThat(slow).isNotDone();
			assertThat(slow.get().get("status").asString()).isEqualTo("SUCCEEDED");
			assertThat(crash.killedAt()).isBetween(crash.at(), crash.at() + SLOW_LATENCY[0]);
		}
		finally {
			victim.destroyForcibly();
		}
	}

	private ChaosGateway start() throws IOException {
		ChaosGateway gateway = new ChaosGateway(new InetSocketAddress("127.0.0.1", 0),
				this.directory.resolve("charges.jsonl"), 42, LATENCY, SLOW_LATENCY);
		gateway.start();
		this.started.add(gateway);
		return gateway;
	}

	private HttpResponse<String> post(ChaosGateway gateway, String path, String key, String token) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
			.header("Idempotency-Key", key)
			.header("Fencing-Token", token)
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private JsonNode charge(ChaosGateway gateway, String key, String token, String customer) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/charges"))
			.header("Idempotency-Key", key)
			.header("Fencing-Token", token)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers
				.ofString("{\"customerId\":\"" + customer + "\",\"amount\":100,\"currency\":\"EUR\"}"))
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(Files.exists(this.directory.resolve("charges.jsonl"))).isTrue();
		return History.JSON.readTree(response.body());
	}

}
