package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RedisIdempotencyStore} under concurrent use on a real Redis Cluster: real threads racing
 * on a few keys through one connection factory, as the threads of one application do.
 */
class RedisIdempotencyStoreConcurrencyTests {

	private static final int THREADS = 16;

	private static final Duration LEASE = Duration.ofMinutes(1);

	private static final Duration TTL = Duration.ofHours(1);

	private static final String FINGERPRINT_A = KeyHashes.sha256Hex("request a");

	private static final String FINGERPRINT_B = KeyHashes.sha256Hex("request b");

	/**
	 * Runs out the lease of a claim, as if its holder had stalled, if it still holds the key.
	 */
	private static final RedisScript<Long> ABANDON = RedisScript.of("""
			if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
			local time = redis.call('TIME')
			redis.call('HSET', KEYS[1], 'locked_until', string.format('%.0f', time[1] * 1000 - 1000))
			return 1""", Long.class);

	/**
	 * Moves the expiry of a completed record into the past, leaving it for Redis to evict.
	 */
	private static final RedisScript<Long> EXPIRE_COMPLETED = RedisScript.of("""
			if redis.call('HGET', KEYS[1], 'status') ~= 'COMPLETED' then return 0 end
			local time = redis.call('TIME')
			redis.call('HSET', KEYS[1], 'expires_at', string.format('%.0f', time[1] * 1000 - 1000))
			return 1""", Long.class);

	private static LettuceConnectionFactory connectionFactory;

	private static RedisIdempotencyStore store;

	private static RedisTemplate<byte[], byte[]> redis;

	private final String tenant = "tenant-" + UUID.randomUUID();

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.cluster();
		store = new RedisIdempotencyStore(connectionFactory, "storeconcurrency:");
		redis = RedisIdempotencyStore.template(connectionFactory);
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	@Test
	void concurrentClaimsOfAnAbsentKeyHaveExactlyOneWinner() throws Exception {
		for (int i = 0; i < 25; i++) {
			IdempotencyKey key = key("absent-" + i);
			List<ClaimResult> results = race(() -> store.claim(new ClaimRequest(key, FINGERPRINT_A, LEASE, TTL)));
			UUID winner = singleWinner(results, false);
			assertThat(existingTokens(results)).containsOnly(winner);
			assertThat(store.find(key).orElseThrow().token()).isEqualTo(winner);
		}
	}

	@Test
	void concurrentRetriesOfARunOutLeaseTakeItOverExactlyOnce() throws Exception {
		for (int i = 0; i < 25; i++) {
			IdempotencyKey key = key("run-out-" + i);
			UUID crashed = ((ClaimResult.Claimed) store.claim(new ClaimRequest(key, FINGERPRINT_A, LEASE, TTL)))
				.token();
			TestRedis.runOutLease(redis, store.keys(), key);
			List<ClaimResult> results = race(() -> store.claim(new ClaimRequest(key, FINGERPRINT_A, LEASE, TTL)));
			UUID winner = singleWinner(results, true);
			assertThat(winner).isNotEqualTo(crashed);
			assertThat(existingTokens(results)).containsOnly(winner);
			assertThat(store.complete(key, crashed, response("crashed".getBytes(StandardCharsets.UTF_8)), TTL))
				.isFalse();
			assertThat(store.find(key).orElseThrow().token()).isEqualTo(winner);
		}
	}

	@Test
	void concurrentRetriesOfAnExpiredRecordClaimItExactlyOnce() throws Exception {
		for (int i = 0; i < 25; i++) {
			IdempotencyKey key = key("expired-" + i);
			UUID first = ((ClaimResult.Claimed) store.claim(new ClaimRequest(key, FINGERPRINT_A, LEASE, TTL))).token();
			assertThat(store.complete(key, first, response(new byte[] { 1 }), TTL)).isTrue();
			TestRedis.expire(redis, store.keys(), key);
			List<ClaimResult> results = race(() -> store.claim(new ClaimRequest(key, FINGERPRINT_B, LEASE, TTL)));
			UUID winner = singleWinner(results, false);
			assertThat(existingTokens(results)).containsOnly(winner);
			IdempotencyRecord record = store.find(key).orElseThrow();
			assertThat(record.token()).isEqualTo(winner);
			assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS);
		}
	}

	/**
	 * Threads claim a few keys at random and then complete, release or abandon them (an
	 * abandoned claim has its lease run out, as if its holder had stalled, and its holder later
	 * tries to complete, release or extend it anyway); completed records are expired at random.
	 * At no time may two threads hold a live claim on one key, a live holder must always be able
	 * to finish, no claim may finish twice, and every replayed response must be the one its token
	 * holder wrote.
	 */
	@Test
	void randomClaimsCompletionsReleasesAndCrashesKeepAtMostOneLiveClaimPerKey() throws Exception {
		int keyCount = 4;
		int rounds = 400;
		IdempotencyKey[] keys = new IdempotencyKey[keyCount];
		for (int k = 0; k < keyCount; k++) {
			keys[k] = key("fuzz-" + k);
		}
		Fuzz fuzz = new Fuzz(keys);
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				workers.add(executor.submit(() -> {
					start.await();
					fuzz.run(rounds);
					return null;
				}));
			}
			start.countDown();
			for (Future<?> worker : workers) {
				worker.get(5, TimeUnit.MINUTES);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(fuzz.violations).isEmpty();
		for (int k = 0; k < keyCount; k++) {
			IdempotencyRecord record = store.find(keys[k]).orElse(null);
			long stillHeld = (record != null && record.status() == RecordStatus.IN_PROGRESS) ? 1 : 0;
			long finished = fuzz.completed.get(k) + fuzz.released.get(k) + stillHeld;
			// Every claim neither finished nor still held was abandoned and then taken over. A
			// take-over may also report replacing a claim that was read as stalled but finished
			// and expired just before, so take-overs bound those claims from above.
			assertThat(fuzz.claimed.get(k) - finished).as("claims of key %d neither finished nor held", k)
				.isBetween(0L, fuzz.takenOver.get(k));
			if (record != null && record.isCompleted()) {
				assertThat(fuzz.successfulCompletions).contains(record.token());
				assertThat(record.response().body()).isEqualTo(fuzz.intendedBodies.get(record.token()));
			}
		}
		assertThat(sum(fuzz.completed)).as("completions").isGreaterThan(0);
		assertThat(sum(fuzz.released)).as("releases").isGreaterThan(0);
		assertThat(sum(fuzz.takenOver)).as("take-overs").isGreaterThan(0);
		assertThat(sum(fuzz.expiries)).as("expiries of completed records").isGreaterThan(0);
		assertThat(sum(fuzz.replays)).as("replays").isGreaterThan(0);
		assertThat(sum(fuzz.conflicts)).as("conflicts").isGreaterThan(0);
		assertThat(sum(fuzz.staleAttemptsRefused)).as("refused late attempts").isGreaterThan(0);
		assertThat(sum(fuzz.revivals)).as("leases extended late").isGreaterThan(0);
	}

	private List<ClaimResult> race(Callable<ClaimResult> claim) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		try {
			CountDownLatch ready = new CountDownLatch(THREADS);
			CountDownLatch start = new CountDownLatch(1);
			List<Future<ClaimResult>> futures = new ArrayList<>();
			for (int i = 0; i < THREADS; i++) {
				futures.add(executor.submit(() -> {
					ready.countDown();
					start.await();
					return claim.call();
				}));
			}
			ready.await();
			start.countDown();
			List<ClaimResult> results = new ArrayList<>();
			for (Future<ClaimResult> future : futures) {
				results.add(future.get(1, TimeUnit.MINUTES));
			}
			return results;
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static UUID singleWinner(List<ClaimResult> results, boolean takenOver) {
		List<ClaimResult.Claimed> winners = results.stream()
			.filter(ClaimResult.Claimed.class::isInstance)
			.map(ClaimResult.Claimed.class::cast)
			.toList();
		assertThat(winners).hasSize(1);
		assertThat(winners.get(0).takenOver()).isEqualTo(takenOver);
		return winners.get(0).token();
	}

	private static List<UUID> existingTokens(List<ClaimResult> results) {
		List<UUID> tokens = results.stream()
			.filter(ClaimResult.Existing.class::isInstance)
			.map((result) -> ((ClaimResult.Existing) result).record().token())
			.toList();
		assertThat(tokens).hasSize(THREADS - 1);
		return tokens;
	}

	private IdempotencyKey key(String name) {
		return new IdempotencyKey(this.tenant, "POST /payments", name);
	}

	private static StoredResponse response(byte[] body) {
		return new StoredResponse(200, Map.of("Content-Type", List.of("application/octet-stream")), body);
	}

	private static long sum(AtomicLongArray counters) {
		long sum = 0;
		for (int i = 0; i < counters.length(); i++) {
			sum += counters.get(i);
		}
		return sum;
	}

	/**
	 * The shared state of the fuzz test: who holds each key, and how every claim ended.
	 */
	private static final class Fuzz {

		private final IdempotencyKey[] keys;

		/**
		 * The token of the thread that holds the live claim of each key, if any.
		 */
		private final AtomicReferenceArray<UUID> live;

		private final AtomicLongArray claimed;

		private final AtomicLongArray completed;

		private final AtomicLongArray released;

		private final AtomicLongArray takenOver;

		private final AtomicLongArray expiries;

		private final AtomicLongArray replays;

		private final AtomicLongArray conflicts;

		private final AtomicLongArray staleAttemptsRefused;

		private final AtomicLongArray revivals;

		private final Map<UUID, byte[]> intendedBodies = new ConcurrentHashMap<>();

		private final Queue<UUID> successfulCompletions = new ConcurrentLinkedQueue<>();

		private final Queue<String> violations = new ConcurrentLinkedQueue<>();

		Fuzz(IdempotencyKey[] keys) {
			this.keys = keys;
			this.live = new AtomicReferenceArray<>(keys.length);
			this.claimed = new AtomicLongArray(keys.length);
			this.completed = new AtomicLongArray(keys.length);
			this.released = new AtomicLongArray(keys.length);
			this.takenOver = new AtomicLongArray(keys.length);
			this.expiries = new AtomicLongArray(keys.length);
			this.replays = new AtomicLongArray(keys.length);
			this.conflicts = new AtomicLongArray(keys.length);
			this.staleAttemptsRefused = new AtomicLongArray(keys.length);
			this.revivals = new AtomicLongArray(keys.length);
		}

		void run(int rounds) {
			List<Abandoned> abandoned = new ArrayList<>();
			ThreadLocalRandom random = ThreadLocalRandom.current();
			for (int round = 0; round < rounds; round++) {
				try {
					int k = random.nextInt(this.keys.length);
					String fingerprint = (random.nextInt(10) == 0) ? FINGERPRINT_B : FINGERPRINT_A;
					ClaimResult result = store.claim(new ClaimRequest(this.keys[k], fingerprint, LEASE, TTL));
					if (result instanceof ClaimResult.Claimed claim) {
						onClaimed(k, claim, abandoned, random);
					}
					else {
						onExisting(k, fingerprint, (ClaimResult.Existing) result);
					}
					if (random.nextInt(12) == 0) {
						expireCompleted(random.nextInt(this.keys.length));
					}
					if (!abandoned.isEmpty() && random.nextInt(4) == 0) {
						finishLate(abandoned.remove(random.nextInt(abandoned.size())), random);
					}
				}
				catch (Throwable ex) {
					this.violations.add(Thread.currentThread().getName() + " failed: " + ex);
				}
			}
		}

		private void onClaimed(int k, ClaimResult.Claimed claim, List<Abandoned> abandoned, ThreadLocalRandom random) {
			IdempotencyKey key = this.keys[k];
			UUID token = claim.token();
			this.claimed.incrementAndGet(k);
			if (claim.takenOver()) {
				this.takenOver.incrementAndGet(k);
			}
			UUID previous = this.live.getAndSet(k, token);
			if (previous != null) {
				this.violations.add("Key " + k + " claimed by " + token + " while " + previous + " held it");
			}
			int action = random.nextInt(100);
			if (!this.live.compareAndSet(k, token, null)) {
				this.violations.add("Key " + k + " was claimed by another thread while " + token + " held it");
			}
			if (action < 45) {
				if (complete(k, token, random)) {
					this.completed.incrementAndGet(k);
				}
				else {
					this.violations.add("The live holder " + token + " of key " + k + " could not complete");
				}
			}
			else if (action < 80) {
				if (store.release(key, token)) {
					this.released.incrementAndGet(k);
				}
				else {
					this.violations.add("The live holder " + token + " of key " + k + " could not release");
				}
			}
			else {
				Long stalled = redis.execute(ABANDON, List.of(store.keys().of(key)), RedisReplies.utf8(token));
				if (stalled == null || stalled != 1) {
					this.violations.add("The live holder " + token + " of key " + k + " was not in Redis");
				}
				if (random.nextInt(4) != 0) {
					// A short stall: the holder's next heartbeat comes at once, often before anybody
					// took the key over.
					extendLate(k, token, random);
				}
				else {
					abandoned.add(new Abandoned(k, token));
				}
			}
		}

		private boolean complete(int k, UUID token, ThreadLocalRandom random) {
			byte[] body = new byte[1 + random.nextInt(64)];
			random.nextBytes(body);
			this.intendedBodies.put(token, body);
			boolean stored = store.complete(this.keys[k], token, response(body), TTL);
			if (stored) {
				this.successfulCompletions.add(token);
			}
			return stored;
		}

		private void onExisting(int k, String fingerprint, ClaimResult.Existing existing) {
			IdempotencyRecord record = existing.record();
			if (record.isCompleted()) {
				this.replays.incrementAndGet(k);
				byte[] intended = this.intendedBodies.get(record.token());
				if (intended == null || !Arrays.equals(intended, record.response().body())) {
					this.violations.add("Key " + k + " replays a response that its holder " + record.token()
							+ " did not write");
				}
				return;
			}
			this.conflicts.incrementAndGet(k);
			if (record.fingerprint().equals(fingerprint) && existing.leaseRemaining().isZero()) {
				this.violations.add("Key " + k + " was not taken over although its lease had run out");
			}
		}

		private void expireCompleted(int k) {
			IdempotencyKey key = this.keys[k];
			Long expired = redis.execute(EXPIRE_COMPLETED, List.of(store.keys().of(key)));
			if (expired != null && expired == 1) {
				this.expiries.incrementAndGet(k);
			}
		}

		/**
		 * The holder of an abandoned claim comes back and tries to finish it: this succeeds only
		 * if nobody took the key over meanwhile.
		 */
		private void finishLate(Abandoned late, ThreadLocalRandom random) {
			int k = late.key();
			UUID token = late.token();
			boolean finished;
			int action = random.nextInt(3);
			if (action == 0) {
				finished = complete(k, token, random);
				if (finished) {
					this.completed.incrementAndGet(k);
				}
			}
			else if (action == 1) {
				finished = store.release(this.keys[k], token);
				if (finished) {
					this.released.incrementAndGet(k);
				}
			}
			else {
				extendLate(k, token, random);
				return;
			}
			if (!finished) {
				this.staleAttemptsRefused.incrementAndGet(k);
			}
		}

		private void extendLate(int k, UUID token, ThreadLocalRandom random) {
			if (store.extendLease(this.keys[k], token, LEASE)) {
				revive(k, token, random);
			}
			else {
				this.staleAttemptsRefused.incrementAndGet(k);
			}
		}

		/**
		 * The holder extended its lease before anybody took the key over, so it holds a live
		 * claim again and must be able to finish it.
		 */
		private void revive(int k, UUID token, ThreadLocalRandom random) {
			this.revivals.incrementAndGet(k);
			UUID previous = this.live.getAndSet(k, token);
			if (previous != null) {
				this.violations.add("Key " + k + " revived by " + token + " while " + previous + " held it");
			}
			if (!this.live.compareAndSet(k, token, null)) {
				this.violations.add("Key " + k + " was claimed by another thread while " + token + " held it");
			}
			if (complete(k, token, random)) {
				this.completed.incrementAndGet(k);
			}
			else {
				this.violations.add("The revived holder " + token + " of key " + k + " could not complete");
			}
		}

	}

	private record Abandoned(int key, UUID token) {
	}

}
