package io.github.idempotency.testsupport.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;

/**
 * The shared state of the store fuzz: threads claim a few keys at random and then complete,
 * release or stall them. A stalled claim was made with a lease short enough to run out, as if its
 * holder had hung; its holder later tries to complete, release or extend it anyway. Completed
 * records are kept for a short TTL, so that keys expire and are claimed again. The fuzz records
 * every violation of the store contract it sees, and counts what happened so that the test can
 * tell that every path was taken.
 */
final class ClaimFuzz {

	private static final Duration LEASE = Duration.ofMinutes(1);

	private static final Duration TTL = Duration.ofHours(1);

	/**
	 * How much later than the end of a stalled lease, by the JVM's clock, a claim must come to be
	 * sure that the store's clock has passed it too.
	 */
	private static final Duration CLOCK_MARGIN = Duration.ofMillis(10);

	private final IdempotencyStore store;

	private final IdempotencyKey[] keys;

	private final String usualFingerprint;

	private final String otherFingerprint;

	private final Duration stallLease;

	private final int maxCompletedTtlMillis;

	/**
	 * The token of the thread that holds the live claim of each key, if any.
	 */
	private final AtomicReferenceArray<@Nullable UUID> live;

	/**
	 * The token of the last completion of each key, until the key is claimed again: a rough
	 * count of expiries, to tell when to stop.
	 */
	private final AtomicReferenceArray<@Nullable UUID> lastCompleted;

	private final AtomicLong reclaimedAfterCompletion = new AtomicLong();

	/**
	 * When each stalled claim that nobody finished yet was made, by {@link System#nanoTime()}.
	 */
	private final Map<UUID, Long> stalledAt = new ConcurrentHashMap<>();

	final AtomicLongArray claimed;

	final AtomicLongArray completed;

	final AtomicLongArray released;

	final AtomicLongArray takenOver;

	final AtomicLongArray replays;

	final AtomicLongArray conflicts;

	final AtomicLongArray staleAttemptsRefused;

	final AtomicLongArray revivals;

	final Map<UUID, byte[]> intendedBodies = new ConcurrentHashMap<>();

	/**
	 * The tokens whose response was stored, with the index of their key.
	 */
	final Map<UUID, Integer> successfulCompletions = new ConcurrentHashMap<>();

	final Queue<String> violations = new ConcurrentLinkedQueue<>();

	ClaimFuzz(IdempotencyStore store, IdempotencyKey[] keys, String usualFingerprint, String otherFingerprint,
			Duration shortTime) {
		this.store = store;
		this.keys = keys;
		this.usualFingerprint = usualFingerprint;
		this.otherFingerprint = otherFingerprint;
		this.stallLease = max(shortTime.dividedBy(10), Duration.ofMillis(1));
		this.maxCompletedTtlMillis = (int) Math.max(2, shortTime.toMillis());
		this.live = new AtomicReferenceArray<>(keys.length);
		this.lastCompleted = new AtomicReferenceArray<>(keys.length);
		this.claimed = new AtomicLongArray(keys.length);
		this.completed = new AtomicLongArray(keys.length);
		this.released = new AtomicLongArray(keys.length);
		this.takenOver = new AtomicLongArray(keys.length);
		this.replays = new AtomicLongArray(keys.length);
		this.conflicts = new AtomicLongArray(keys.length);
		this.staleAttemptsRefused = new AtomicLongArray(keys.length);
		this.revivals = new AtomicLongArray(keys.length);
	}

	/**
	 * Play rounds on the calling thread: at least the given number, then more until every path of
	 * the fuzz has been taken or the time is up.
	 * @param rounds how many claims to make at least
	 * @param deadline when to stop making more, by {@link System#nanoTime()}
	 */
	void run(int rounds, long deadline) {
		List<Stalled> stalled = new ArrayList<>();
		ThreadLocalRandom random = ThreadLocalRandom.current();
		// the first violation ends every thread's rounds: one fails the test, and a store that fails
		// every call would otherwise pile up violations until the deadline
		for (int round = 0; (round < rounds || (!everyPathTaken() && System.nanoTime() - deadline < 0))
				&& this.violations.isEmpty(); round++) {
			try {
				int k = random.nextInt(this.keys.length);
				String fingerprint = (random.nextInt(10) == 0) ? this.otherFingerprint : this.usualFingerprint;
				boolean stall = random.nextInt(5) == 0;
				long claimStarted = System.nanoTime();
				ClaimResult result = this.store.claim(
						new ClaimRequest(this.keys[k], fingerprint, stall ? this.stallLease : LEASE, TTL));
				if (result instanceof ClaimResult.Claimed claim) {
					onClaimed(k, claim, stall, stalled, random);
				}
				else {
					onExisting(k, fingerprint, (ClaimResult.Existing) result, claimStarted);
				}
				Stalled due = dueToComeBack(stalled);
				if (due != null) {
					stalled.remove(due);
					finishLate(due, random);
				}
			}
			catch (Throwable ex) {
				this.violations.add(Thread.currentThread().getName() + " failed: " + ex);
			}
		}
	}

	private void onClaimed(int k, ClaimResult.Claimed claim, boolean stall, List<Stalled> stalled,
			ThreadLocalRandom random) {
		UUID token = claim.token();
		this.claimed.incrementAndGet(k);
		if (claim.takenOver()) {
			this.takenOver.incrementAndGet(k);
		}
		else if (this.lastCompleted.getAndSet(k, null) != null) {
			this.reclaimedAfterCompletion.incrementAndGet();
		}
		if (stall) {
			this.stalledAt.put(token, System.nanoTime());
			// Back before or after its lease runs out, whatever the store's speed: a fast store
			// must see take-overs too.
			long comesBackAt = System.nanoTime() + random.nextLong(2 * this.stallLease.toNanos() + 1);
			stalled.add(new Stalled(k, token, comesBackAt));
			return;
		}
		holdBriefly(k, token);
		if (random.nextInt(100) < 55) {
			if (complete(k, token, random)) {
				this.completed.incrementAndGet(k);
			}
			else {
				this.violations.add("The live holder " + token + " of key " + k + " could not complete");
			}
		}
		else if (this.store.release(this.keys[k], token)) {
			this.released.incrementAndGet(k);
		}
		else {
			this.violations.add("The live holder " + token + " of key " + k + " could not release");
		}
	}

	/**
	 * Mark a key as held by a live claim and unmark it: nobody else may have held it meanwhile. It
	 * is unmarked before the claim is finished, as the key may change hands right after.
	 */
	private void holdBriefly(int k, UUID token) {
		UUID previous = this.live.getAndSet(k, token);
		if (previous != null) {
			this.violations.add("Key " + k + " claimed by " + token + " while " + previous + " held it");
		}
		if (!this.live.compareAndSet(k, token, null)) {
			this.violations.add("Key " + k + " was claimed by another thread while " + token + " held it");
		}
	}

	private boolean complete(int k, UUID token, ThreadLocalRandom random) {
		byte[] body = new byte[1 + random.nextInt(64)];
		random.nextBytes(body);
		this.intendedBodies.put(token, body);
		Duration ttl = Duration.ofMillis(1 + random.nextInt(this.maxCompletedTtlMillis));
		boolean stored = this.store.complete(this.keys[k], token, response(body), ttl);
		if (stored) {
			this.successfulCompletions.put(token, k);
			this.lastCompleted.set(k, token);
		}
		return stored;
	}

	private void onExisting(int k, String fingerprint, ClaimResult.Existing existing, long claimStarted) {
		IdempotencyRecord record = existing.record();
		if (record.isCompleted()) {
			this.replays.incrementAndGet(k);
			byte[] intended = this.intendedBodies.get(record.token());
			StoredResponse response = record.response();
			if (intended == null || response == null || !Arrays.equals(intended, response.body())) {
				this.violations.add("Key " + k + " replays a response that its holder " + record.token()
						+ " did not write");
			}
			return;
		}
		this.conflicts.incrementAndGet(k);
		Long stalled = this.stalledAt.get(record.token());
		if (record.fingerprint().equals(fingerprint) && stalled != null
				&& claimStarted - stalled > this.stallLease.plus(CLOCK_MARGIN).toNanos()) {
			this.violations.add("Key " + k + " was not taken over although its lease had run out before the claim");
		}
	}

	/**
	 * The holder of a stalled claim comes back and tries to finish it: this succeeds only if
	 * nobody took the key over meanwhile.
	 */
	private void finishLate(Stalled late, ThreadLocalRandom random) {
		int k = late.key();
		UUID token = late.token();
		// Forgotten before the attempt: once the lease is extended, a claim may find it live.
		this.stalledAt.remove(token);
		boolean finished;
		int action = random.nextInt(3);
		if (action == 0) {
			finished = complete(k, token, random);
			if (finished) {
				this.completed.incrementAndGet(k);
			}
		}
		else if (action == 1) {
			finished = this.store.release(this.keys[k], token);
			if (finished) {
				this.released.incrementAndGet(k);
			}
		}
		else {
			finished = this.store.extendLease(this.keys[k], token, LEASE);
			if (finished) {
				revive(k, token, random);
			}
		}
		if (!finished) {
			this.staleAttemptsRefused.incrementAndGet(k);
		}
	}

	/**
	 * The holder extended its lease before anybody took the key over, so it holds a live claim
	 * again and must be able to finish it.
	 */
	private void revive(int k, UUID token, ThreadLocalRandom random) {
		this.revivals.incrementAndGet(k);
		holdBriefly(k, token);
		if (complete(k, token, random)) {
			this.completed.incrementAndGet(k);
		}
		else {
			this.violations.add("The revived holder " + token + " of key " + k + " could not complete");
		}
	}

	private boolean everyPathTaken() {
		return sum(this.completed) > 0 && sum(this.released) > 0 && sum(this.takenOver) > 0
				&& this.reclaimedAfterCompletion.get() > 0 && sum(this.replays) > 0 && sum(this.conflicts) > 0
				&& sum(this.staleAttemptsRefused) > 0 && sum(this.revivals) > 0;
	}

	static long sum(AtomicLongArray counters) {
		long sum = 0;
		for (int i = 0; i < counters.length(); i++) {
			sum += counters.get(i);
		}
		return sum;
	}

	/**
	 * Return how many completed records of a key were replaced: a completed record is never taken
	 * over or released, so each was claimed again after it expired.
	 * @param k the index of the key
	 * @param current the record the key has now, if any
	 * @return the number of completed records of the key that expired and were replaced
	 */
	long expiredAndReplaced(int k, @Nullable IdempotencyRecord current) {
		long completions = this.successfulCompletions.values().stream().filter((key) -> key == k).count();
		boolean stillThere = current != null && current.isCompleted()
				&& this.successfulCompletions.containsKey(current.token());
		return completions - (stillThere ? 1 : 0);
	}

	private static StoredResponse response(byte[] body) {
		return new StoredResponse(200, Map.of("Content-Type", List.of("application/octet-stream")), body);
	}

	private static Duration max(Duration one, Duration other) {
		return (one.compareTo(other) >= 0) ? one : other;
	}

	private static @Nullable Stalled dueToComeBack(List<Stalled> stalled) {
		long now = System.nanoTime();
		for (Stalled candidate : stalled) {
			if (now - candidate.comesBackAt() >= 0) {
				return candidate;
			}
		}
		return null;
	}

	private record Stalled(int key, UUID token, long comesBackAt) {
	}

}
