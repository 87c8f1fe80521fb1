package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.RecordCounts;
import io.github.idempotency.store.RecordMetadata;
import io.github.idempotency.store.ReleaseOutcome;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Operator access to the records of the Redis store, which the Actuator endpoint and health
 * contribution use: counts over every primary, the metadata of one record, the release of a stuck
 * key. Each test keeps to a key prefix of its own, so that it counts only its own records.
 */
abstract class RedisRecordAdministrationTests {

	private final String tenant = "tenant-" + UUID.randomUUID();

	private final String testPrefix = UUID.randomUUID().toString().substring(0, 8) + ":";

	protected abstract RedisConnectionFactory connectionFactory();

	/**
	 * Return the key prefix of the test class, under which each test has one of its own.
	 * @return the prefix
	 */
	protected abstract String prefix();

	private RedisIdempotencyStore store() {
		return new RedisIdempotencyStore(connectionFactory(), prefix() + this.testPrefix);
	}

	private RedisIdempotencyRecordAdministration administration() {
		return new RedisIdempotencyRecordAdministration(connectionFactory(), prefix() + this.testPrefix);
	}

	@Test
	void countsRecordsByOperationAndStatusOnEveryPrimary() {
		RedisIdempotencyStore store = store();
		for (int i = 0; i < 40; i++) {
			claim(store, new IdempotencyKey(this.tenant, "POST /payments", "running-" + i));
		}
		for (int i = 0; i < 25; i++) {
			IdempotencyKey key = new IdempotencyKey(this.tenant, "POST /payments", "done-" + i);
			assertThat(store.complete(key, claim(store, key), response(), Duration.ofHours(1))).isTrue();
		}
		IdempotencyKey stuck = new IdempotencyKey(this.tenant, "POST /refunds/{id}", "stuck");
		claim(store, stuck);
		TestRedis.runOutLease(redis(), store.keys(), stuck);
		IdempotencyKey expired = new IdempotencyKey(this.tenant, "POST /refunds/{id}", "expired");
		assertThat(store.complete(expired, claim(store, expired), response(), Duration.ofHours(1))).isTrue();
		TestRedis.expire(redis(), store.keys(), expired);
		List<RecordCounts> counts = administration().countByOperation();
		assertThat(counts).containsExactly(new RecordCounts("POST /payments", 40, 25, 0, 0),
				new RecordCounts("POST /refunds/{id}", 1, 1, 1, 1));
		assertThat(administration().countStuck()).isEqualTo(1);
	}

	@Test
	void describesARecordWithoutItsBody() {
		RedisIdempotencyStore store = store();
		IdempotencyKey key = new IdempotencyKey(this.tenant, "POST /payments", "described");
		UUID token = claim(store, key);
		RecordMetadata running = administration().describe(key).orElseThrow();
		assertThat(running.status()).isEqualTo(RecordStatus.IN_PROGRESS);
		assertThat(running.fingerprint()).isEqualTo("f".repeat(64));
		assertThat(running.lockedUntil()).isAfter(running.createdAt());
		assertThat(running.leaseExpired()).isFalse();
		assertThat(running.expired()).isFalse();
		assertThat(running.responseStatus()).isNull();
		assertThat(running.responseBodyBytes()).isNull();
		assertThat(store.complete(key, token, response(), Duration.ofHours(1))).isTrue();
		RecordMetadata completed = administration().describe(key).orElseThrow();
		assertThat(completed.status()).isEqualTo(RecordStatus.COMPLETED);
		assertThat(completed.completedAt()).isNotNull();
		assertThat(completed.lockedUntil()).isNull();
		assertThat(completed.responseStatus()).isEqualTo(201);
		assertThat(completed.responseBodyBytes()).isEqualTo(response().body().length);
		TestRedis.expire(redis(), store.keys(), key);
		assertThat(administration().describe(key).orElseThrow().expired()).isTrue();
		assertThat(administration().describe(new IdempotencyKey(this.tenant, "POST /payments", "none"))).isEmpty();
	}

	@Test
	void releasesAKeyWhoseLeaseRanOutAndALiveOneOnlyWithForce() {
		RedisIdempotencyStore store = store();
		IdempotencyKey stuck = new IdempotencyKey(this.tenant, "POST /payments", "stuck");
		claim(store, stuck);
		TestRedis.runOutLease(redis(), store.keys(), stuck);
		assertThat(administration().release(stuck, false)).isEqualTo(ReleaseOutcome.RELEASED);
		assertThat(store.find(stuck)).isEmpty();
		IdempotencyKey live = new IdempotencyKey(this.tenant, "POST /payments", "live");
		claim(store, live);
		assertThat(administration().release(live, false)).isEqualTo(ReleaseOutcome.LEASE_ACTIVE);
		assertThat(store.find(live)).isPresent();
		assertThat(administration().release(live, true)).isEqualTo(ReleaseOutcome.RELEASED);
		assertThat(store.find(live)).isEmpty();
		IdempotencyKey done = new IdempotencyKey(this.tenant, "POST /payments", "done");
		assertThat(store.complete(done, claim(store, done), response(), Duration.ofHours(1))).isTrue();
		assertThat(administration().release(done, true)).isEqualTo(ReleaseOutcome.COMPLETED);
		assertThat(store.find(done)).isPresent();
		assertThat(administration().release(new IdempotencyKey(this.tenant, "POST /payments", "none"), true))
			.isEqualTo(ReleaseOutcome.NOT_FOUND);
	}

	@Test
	void healthIsUpWhileRedisAnswers() {
		Health health = new RedisIdempotencyStoreHealthIndicator(connectionFactory()).health(true);
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("store", "redis");
	}

	private RedisTemplate<byte[], byte[]> redis() {
		return RedisIdempotencyStore.template(connectionFactory());
	}

	private static UUID claim(RedisIdempotencyStore store, IdempotencyKey key) {
		ClaimResult result = store.claim(new ClaimRequest(key, "f".repeat(64), Duration.ofMinutes(1),
				Duration.ofHours(1)));
		assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
		return ((ClaimResult.Claimed) result).token();
	}

	private static StoredResponse response() {
		return new StoredResponse(201, Map.of("Content-Type", List.of("application/json")),
				"{\"id\":42}".getBytes(StandardCharsets.UTF_8));
	}

}
