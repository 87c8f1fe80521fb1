package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.testsupport.RedisTestCluster;
import io.github.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code idempotency.redis.wait-replicas}: a claim or completion goes on only once enough replicas
 * hold it, on a real Redis Cluster with one replica per primary whose replicas are frozen to stand
 * for a replica that lags, hangs or is cut off.
 */
class RedisReplicaAcknowledgementTests {

	private static final Duration SHORT_WAIT = Duration.ofMillis(300);

	private static LettuceConnectionFactory cluster;

	private static LettuceConnectionFactory standalone;

	private final String tenant = "tenant-" + UUID.randomUUID();

	@BeforeAll
	static void connect() {
		cluster = TestRedis.cluster();
		standalone = TestRedis.standalone();
	}

	@AfterAll
	static void disconnect() {
		cluster.destroy();
		standalone.destroy();
	}

	@Test
	void aClaimAndItsCompletionAreOnTheReplicaWhenTheyReturn() {
		RedisIdempotencyStore store = new RedisIdempotencyStore(cluster, "acks:", 1, Duration.ofSeconds(10));
		IdempotencyKey key = key("replicated");
		UUID token = claimed(store.claim(request(key)));
		assertThat(readFromReplica(store, key, "token")).isEqualTo(token.toString());
		assertThat(store.complete(key, token, response(), Duration.ofHours(1))).isTrue();
		assertThat(readFromReplica(store, key, "status")).isEqualTo("COMPLETED");
	}

	@Test
	void aClaimTooFewReplicasAcknowledgedIsGivenUpAndTheStoreAnswersUnavailable() {
		RedisIdempotencyStore store = new RedisIdempotencyStore(cluster, "acks:", 1, SHORT_WAIT);
		IdempotencyKey key = key("unacknowledged-claim");
		try (RedisTestCluster.Frozen frozen = RedisTestCluster.get().freezeReplicas()) {
			assertThatExceptionOfType(IdempotencyStoreUnavailableException.class)
				.isThrownBy(() -> store.claim(request(key)))
				.satisfies((ex) -> assertThat(ex.getCause()).hasMessageContaining("acknowledged by 0 of the 1"));
			assertThat(store.find(key).orElseThrow().status()).isEqualTo(RecordStatus.RELEASED);
		}
		assertThat(store.claim(request(key))).isInstanceOf(ClaimResult.Claimed.class);
	}

	/**
	 * A completion stays on the primary, so that a retry replays it unless a failover loses it; the
	 * request itself is answered as if the store were unavailable, so that the client retries.
	 */
	@Test
	void aCompletionTooFewReplicasAcknowledgedIsKeptButReportedUnavailable() {
		RedisIdempotencyStore store = new RedisIdempotencyStore(cluster, "acks:", 1, SHORT_WAIT);
		IdempotencyKey key = key("unacknowledged-completion");
		UUID token = claimed(store.claim(request(key)));
		try (RedisTestCluster.Frozen frozen = RedisTestCluster.get().freezeReplicas()) {
			assertThatExceptionOfType(IdempotencyStoreUnavailableException.class)
				.isThrownBy(() -> store.complete(key, token, response(), Duration.ofHours(1)));
		}
		assertThat(store.find(key).orElseThrow().status()).isEqualTo(RecordStatus.COMPLETED);
	}

	@Test
	void aClaimThatFindsTheKeyTakenWritesNothingAndWaitsForNoReplica() {
		RedisIdempotencyStore store = new RedisIdempotencyStore(cluster, "acks:", 1, SHORT_WAIT);
		IdempotencyKey key = key("taken");
		UUID token = claimed(store.claim(request(key)));
		try (RedisTestCluster.Frozen frozen = RedisTestCluster.get().freezeReplicas()) {
			ClaimResult.Existing existing = (ClaimResult.Existing) store.claim(request(key));
			assertThat(existing.record().token()).isEqualTo(token);
		}
	}

	@Test
	void aStandaloneServerWithoutReplicasCannotAcknowledgeAClaim() {
		String prefix = RedisTestServer.local().uniquePrefix("acks");
		RedisIdempotencyStore store = new RedisIdempotencyStore(standalone, prefix, 1, Duration.ofMillis(100));
		IdempotencyKey key = key("no-replica");
		try {
			assertThatExceptionOfType(IdempotencyStoreUnavailableException.class)
				.isThrownBy(() -> store.claim(request(key)));
			assertThat(store.find(key).orElseThrow().status()).isEqualTo(RecordStatus.RELEASED);
		}
		finally {
			RedisTestServer.local().deleteKeys(prefix);
		}
	}

	private static Object readFromReplica(RedisIdempotencyStore store, IdempotencyKey key, String field) {
		return RedisTestCluster.get()
			.readFromReplica("HGET", new String(store.keys().of(key), StandardCharsets.UTF_8), field);
	}

	private IdempotencyKey key(String name) {
		return new IdempotencyKey(this.tenant, "POST /payments", name);
	}

	private static ClaimRequest request(IdempotencyKey key) {
		return new ClaimRequest(key, "f".repeat(64), Duration.ofMinutes(1), Duration.ofHours(1));
	}

	private static UUID claimed(ClaimResult result) {
		assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
		return ((ClaimResult.Claimed) result).token();
	}

	private static StoredResponse response() {
		return new StoredResponse(201, Map.of("Content-Type", List.of("application/json")),
				"{}".getBytes(StandardCharsets.UTF_8));
	}

}
