package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.testsupport.RedisTestCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What is particular to {@link RedisIdempotencyStore}, on a real Redis Cluster: native expiry that
 * never cuts a live lease short, records that stay in the hash slot of their identity whatever the
 * characters of tenant, operation and key, and bodies of any bytes.
 */
class RedisIdempotencyStoreTests {

	private static final String PREFIX = "storetests:";

	private static final String FINGERPRINT = "f".repeat(64);

	private static final RedisScript<Long> EXPIRY = RedisScript.of("return redis.call('PEXPIRETIME', KEYS[1])",
			Long.class);

	private static final RedisScript<Long> HAS_LEASE = RedisScript
		.of("return redis.call('HEXISTS', KEYS[1], 'locked_until')", Long.class);

	private static LettuceConnectionFactory connectionFactory;

	private static RedisIdempotencyStore store;

	private static RedisTemplate<byte[], byte[]> redis;

	private final String tenant = "tenant-" + UUID.randomUUID();

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.cluster();
		store = new RedisIdempotencyStore(connectionFactory, PREFIX);
		redis = RedisIdempotencyStore.template(connectionFactory);
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	@Test
	void aClaimExpiresNativelyAtItsExpiry() {
		IdempotencyKey key = key("claim");
		claim(key, Duration.ofMinutes(1), Duration.ofHours(1));
		IdempotencyRecord record = store.find(key).orElseThrow();
		assertThat(nativeExpiry(key)).isEqualTo(record.expiresAt().toEpochMilli());
	}

	@Test
	void aLeaseLongerThanTheTtlKeepsTheClaimUntilTheLeaseRunsOut() {
		IdempotencyKey key = key("long-lease");
		claim(key, Duration.ofHours(2), Duration.ofMinutes(1));
		IdempotencyRecord record = store.find(key).orElseThrow();
		assertThat(nativeExpiry(key)).isEqualTo(record.lockedUntil().toEpochMilli());
	}

	@Test
	void completionMovesTheNativeExpiryToTheNewExpiryAndDropsTheLease() {
		IdempotencyKey key = key("complete");
		UUID token = claim(key, Duration.ofHours(3), Duration.ofMinutes(1));
		assertThat(store.complete(key, token, response(new byte[] { 1 }), Duration.ofHours(2))).isTrue();
		IdempotencyRecord record = store.find(key).orElseThrow();
		assertThat(nativeExpiry(key)).isEqualTo(record.expiresAt().toEpochMilli());
		assertThat(redis.execute(HAS_LEASE, List.of(store.keys().of(key)))).isZero();
	}

	@Test
	void extendingTheLeasePastTheExpiryKeepsTheClaimThatLong() {
		IdempotencyKey key = key("extend");
		UUID token = claim(key, Duration.ofSeconds(30), Duration.ofMinutes(1));
		assertThat(store.extendLease(key, token, Duration.ofHours(2))).isTrue();
		IdempotencyRecord record = store.find(key).orElseThrow();
		assertThat(nativeExpiry(key)).isEqualTo(record.lockedUntil().toEpochMilli());
	}

	@Test
	void aRecordRedisHasEvictedIsAbsentAndItsKeyCanBeClaimedAgain() {
		IdempotencyKey key = key("evicted");
		UUID first = claim(key, Duration.ofMillis(200), Duration.ofMillis(200));
		await().atMost(Duration.ofSeconds(10)).until(() -> store.find(key).isEmpty());
		ClaimResult.Claimed again = (ClaimResult.Claimed) store
			.claim(new ClaimRequest(key, FINGERPRINT, Duration.ofMinutes(1), Duration.ofHours(1)));
		assertThat(again.takenOver()).isFalse();
		assertThat(again.token()).isNotEqualTo(first);
		assertThat(store.complete(key, first, response(new byte[] { 1 }), Duration.ofHours(1))).isFalse();
	}

	@Test
	void bodiesOfAnyBytesAndSizeReplayExactly() {
		byte[] body = new byte[1024 * 1024 + 3];
		new Random(42).nextBytes(body);
		body[0] = (byte) 0xC3;
		body[1] = (byte) 0x28;
		IdempotencyKey key = key("large");
		UUID token = claim(key, Duration.ofMinutes(1), Duration.ofHours(1));
		assertThat(store.complete(key, token, response(body), Duration.ofHours(1))).isTrue();
		assertThat(store.find(key).orElseThrow().response().body()).isEqualTo(body);
	}

	/**
	 * Identities whose parts hold hash-tag braces, separators, escape sequences, unicode and lone
	 * surrogates each get a record of their own, in the slot of their identity: a script never
	 * touches a key of another slot, which Redis Cluster would refuse with CROSSSLOT.
	 */
	@Test
	void identitiesOfEveryCharacterClassKeepRecordsOfTheirOwnInTheSlotOfTheirIdentity() {
		List<String> parts = List.of("plain", "{", "}", "{}", "}{", "a{b}c", ":", "a:b", "%", "%7B", "%25",
				"ünïcødé", "租户", "\uD83D\uDE00", "\uD800", "?", "*", "[x]", "\\", " ", "");
		Map<IdempotencyKey, String> fingerprints = new LinkedHashMap<>();
		for (String tenant : parts) {
			for (String key : parts) {
				String operation = "POST /" + tenant.length() + key;
				fingerprints.put(new IdempotencyKey(this.tenant + tenant, operation, key),
						UUID.randomUUID().toString());
				fingerprints.put(new IdempotencyKey(this.tenant + key, tenant, tenant + key),
						UUID.randomUUID().toString());
			}
		}
		Set<Integer> slots = new HashSet<>();
		fingerprints.forEach((key, fingerprint) -> {
			ClaimResult result = store.claim(new ClaimRequest(key, fingerprint, Duration.ofMinutes(1),
					Duration.ofHours(1)));
			assertThat(result).as("%s", key).isInstanceOf(ClaimResult.Claimed.class);
			UUID token = ((ClaimResult.Claimed) result).token();
			assertThat(store.complete(key, token, response(fingerprint.getBytes(StandardCharsets.UTF_8)),
					Duration.ofHours(1))).isTrue();
			slots.add(assertInTheSlotOfItsIdentity(store.keys().of(key)));
		});
		fingerprints.forEach((key, fingerprint) -> {
			IdempotencyRecord record = store.find(key).orElseThrow();
			assertThat(record.fingerprint()).isEqualTo(fingerprint);
			assertThat(record.response().body()).isEqualTo(fingerprint.getBytes(StandardCharsets.UTF_8));
		});
		assertThat(slots).hasSizeGreaterThan(100);
	}

	/**
	 * Random identities from characters that delimit keys and hash tags run through every
	 * operation without a single error, and each operation sees only its own record.
	 */
	@Test
	void randomIdentitiesRunThroughEveryOperationWithoutACrossSlotError() {
		Random random = new Random();
		char[] alphabet = "{}:%7BD3A25u\\*?[] ünï租😀".toCharArray();
		List<IdempotencyKey> keys = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			keys.add(new IdempotencyKey(this.tenant + randomText(random, alphabet), randomText(random, alphabet),
					randomText(random, alphabet) + i));
		}
		for (IdempotencyKey key : keys) {
			UUID token = claim(key, Duration.ofMinutes(1), Duration.ofHours(1));
			assertThat(store.extendLease(key, token, Duration.ofMinutes(2))).isTrue();
			assertThat(store.claim(new ClaimRequest(key, FINGERPRINT, Duration.ofMinutes(1), Duration.ofHours(1))))
				.isInstanceOf(ClaimResult.Existing.class);
			if (random.nextBoolean()) {
				assertThat(store.complete(key, token, response(new byte[] { 7 }), Duration.ofHours(1))).isTrue();
			}
			else {
				assertThat(store.release(key, token)).isTrue();
				assertThat(store.find(key).orElseThrow().status()).isEqualTo(RecordStatus.RELEASED);
			}
		}
	}

	private int assertInTheSlotOfItsIdentity(byte[] redisKey) {
		String text = new String(redisKey, StandardCharsets.UTF_8);
		byte[] tag = text.substring(text.indexOf('{') + 1, text.length() - 1).getBytes(StandardCharsets.UTF_8);
		int slot = SlotHash.getSlot(tag);
		Object serverSlot = RedisTestCluster.get()
			.command(RedisTestCluster.get().primaryPorts().get(0), "CLUSTER", "KEYSLOT", text);
		assertThat(serverSlot).isEqualTo((long) slot);
		return slot;
	}

	private static String randomText(Random random, char[] alphabet) {
		StringBuilder text = new StringBuilder();
		int length = random.nextInt(8);
		for (int i = 0; i < length; i++) {
			text.append(alphabet[random.nextInt(alphabet.length)]);
		}
		return text.toString();
	}

	private long nativeExpiry(IdempotencyKey key) {
		return redis.execute(EXPIRY, List.of(store.keys().of(key)));
	}

	private UUID claim(IdempotencyKey key, Duration lease, Duration ttl) {
		ClaimResult result = store.claim(new ClaimRequest(key, FINGERPRINT, lease, ttl));
		assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
		return ((ClaimResult.Claimed) result).token();
	}

	private IdempotencyKey key(String name) {
		return new IdempotencyKey(this.tenant, "POST /payments", name);
	}

	private static StoredResponse response(byte[] body) {
		return new StoredResponse(200, Map.of("Content-Type", List.of("application/octet-stream")), body);
	}

}
