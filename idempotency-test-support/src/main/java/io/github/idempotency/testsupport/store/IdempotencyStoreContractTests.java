package io.github.idempotency.testsupport.store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.RecordStatus;
import io.github.idempotency.store.StoredResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The behaviour every {@link IdempotencyStore} must have, concurrency included. A store's tests
 * extend this class and return the store under test from {@link #store()}:
 *
 * <pre class="code">
 * class MyIdempotencyStoreTests extends IdempotencyStoreContractTests {
 *
 *     private static final MyIdempotencyStore store = new MyIdempotencyStore(...);
 *
 *     &#64;Override
 *     protected IdempotencyStore store() {
 *         return store;
 *     }
 *
 * }
 * </pre>
 *
 * A store that keeps sequence numbers or references runs those tests too, from a nested class
 * each that extends {@link SequencingIdempotencyStoreContractTests} or
 * {@link ReferencingIdempotencyStoreContractTests}: a store runs exactly the tests of what it offers.
 */
public abstract class IdempotencyStoreContractTests extends IdempotencyStoreContractSupport {

	@Test
	void claimsAnAbsentKey() {
		IdempotencyKey key = key("absent");
		UUID token = claim(key, FINGERPRINT_A);
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.key()).isEqualTo(key);
		assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS);
		assertThat(record.token()).isEqualTo(token);
		assertThat(record.fingerprint()).isEqualTo(FINGERPRINT_A);
		assertThat(record.response()).isNull();
		assertThat(record.completedAt()).isNull();
		assertThat(Duration.between(record.createdAt(), record.lockedUntil())).isCloseTo(LEASE, CLOCK_TOLERANCE);
		assertThat(Duration.between(record.createdAt(), record.expiresAt())).isCloseTo(TTL, CLOCK_TOLERANCE);
	}

	@Test
	void claimOfALiveKeyReturnsTheRecordInProgressWithItsRemainingLease() {
		IdempotencyKey key = key("live");
		UUID token = claim(key, FINGERPRINT_A);
		ClaimResult.Existing existing = existing(store().claim(request(key, FINGERPRINT_A)));
		assertThat(existing.record().status()).isEqualTo(RecordStatus.IN_PROGRESS);
		assertThat(existing.record().token()).isEqualTo(token);
		assertThat(existing.leaseRemaining()).isPositive().isLessThanOrEqualTo(LEASE);
		assertThat(store().find(key).orElseThrow().token()).isEqualTo(token);
	}

	@Test
	void claimOfALiveKeyWithAnotherFingerprintReturnsTheRecordUnchanged() {
		IdempotencyKey key = key("live-other");
		UUID token = claim(key, FINGERPRINT_A);
		ClaimResult.Existing existing = existing(store().claim(request(key, FINGERPRINT_B)));
		assertThat(existing.record().fingerprint()).isEqualTo(FINGERPRINT_A);
		assertThat(existing.record().token()).isEqualTo(token);
		assertThat(store().find(key).orElseThrow().fingerprint()).isEqualTo(FINGERPRINT_A);
	}

	@Test
	void claimOfACompletedKeyWithAnotherFingerprintShowsTheFingerprintItWasClaimedWith() {
		IdempotencyKey key = key("completed-other");
		UUID token = claim(key, FINGERPRINT_A);
		assertThat(store().complete(key, token, response(201, bytes("paid")), TTL)).isTrue();
		ClaimResult.Existing existing = existing(store().claim(request(key, FINGERPRINT_B)));
		assertThat(existing.record().isCompleted()).isTrue();
		assertThat(existing.record().fingerprint()).isEqualTo(FINGERPRINT_A);
		assertThat(store().find(key).orElseThrow().fingerprint()).isEqualTo(FINGERPRINT_A);
	}

	@Test
	void completeWithTheTokenStoresTheResponseByteForByte() {
		IdempotencyKey key = key("complete");
		UUID token = claim(key, FINGERPRINT_A);
		StoredResponse response = response(201, allByteValues());
		assertThat(store().complete(key, token, response, Duration.ofHours(2))).isTrue();
		ClaimResult.Existing existing = existing(store().claim(request(key, FINGERPRINT_A)));
		IdempotencyRecord record = existing.record();
		assertThat(record.status()).isEqualTo(RecordStatus.COMPLETED);
		assertThat(record.isCompleted()).isTrue();
		assertThat(record.token()).isEqualTo(token);
		assertThat(record.response().status()).isEqualTo(201);
		assertThat(record.response().body()).isEqualTo(allByteValues());
		assertThat(record.response().headers()).containsExactly(entry("Content-Type", List.of("application/json")),
				entry("Location", List.of("/payments/42")), entry("X-Trace", List.of("a", "b: c")));
		assertThat(record.response()).isEqualTo(response);
		assertThat(record.lockedUntil()).isNull();
		assertThat(record.completedAt()).isNotNull();
		assertThat(Duration.between(record.completedAt(), record.expiresAt())).isCloseTo(Duration.ofHours(2),
				CLOCK_TOLERANCE);
		assertThat(existing.leaseRemaining()).isZero();
		assertThat(store().find(key)).contains(record);
	}

	@Test
	void storedHeadersKeepTheirOrderTheirNamesAsWrittenAndEveryValue() {
		IdempotencyKey key = key("headers");
		UUID token = claim(key, FINGERPRINT_A);
		Map<String, List<String>> headers = new LinkedHashMap<>();
		headers.put("X-Zeta", List.of("last letter, first header"));
		headers.put("Content-Type", List.of("application/problem+json; charset=utf-8"));
		headers.put("x-lower-case", List.of("as written"));
		headers.put("Link", List.of("</a>; rel=\"next\"", "</b>; rel=\"prev\"", "</a>; rel=\"next\""));
		headers.put("X-Empty", List.of(""));
		headers.put("X-Separators", List.of("a:b|c{d}e;f=g", "  padded  "));
		headers.put("Location", List.of("/payments/42?x=1&y=2"));
		StoredResponse response = new StoredResponse(422, headers, bytes("{}"));
		assertThat(store().complete(key, token, response, TTL)).isTrue();
		StoredResponse stored = existing(store().claim(request(key, FINGERPRINT_A))).record().response();
		assertThat(stored.headers()).containsExactlyEntriesOf(headers);
		assertThat(List.copyOf(stored.headers().keySet())).containsExactly("X-Zeta", "Content-Type", "x-lower-case",
				"Link", "X-Empty", "X-Separators", "Location");
		assertThat(stored).isEqualTo(response);
	}

	@Test
	void completeStoresAnEmptyBodyAndNoHeaders() {
		IdempotencyKey key = key("empty");
		UUID token = claim(key, FINGERPRINT_A);
		assertThat(store().complete(key, token, new StoredResponse(204, Map.of(), new byte[0]), TTL)).isTrue();
		StoredResponse stored = store().find(key).orElseThrow().response();
		assertThat(stored.status()).isEqualTo(204);
		assertThat(stored.headers()).isEmpty();
		assertThat(stored.body()).isEmpty();
	}

	@Test
	void completeStoresALargeBinaryBodyByteForByte() {
		IdempotencyKey key = key("large");
		UUID token = claim(key, FINGERPRINT_A);
		byte[] body = new byte[512 * 1024];
		ThreadLocalRandom.current().nextBytes(body);
		assertThat(store().complete(key, token,
				new StoredResponse(200, Map.of("Content-Type", List.of("application/octet-stream")), body), TTL))
			.isTrue();
		assertThat(existing(store().claim(request(key, FINGERPRINT_A))).record().response().body()).isEqualTo(body);
	}

	@Test
	void completeWithAWrongTokenChangesNothing() {
		IdempotencyKey key = key("wrong-complete");
		claim(key, FINGERPRINT_A);
		IdempotencyRecord before = store().find(key).orElseThrow();
		assertThat(store().complete(key, UUID.randomUUID(), response(200, bytes("stolen")), TTL)).isFalse();
		assertThat(store().find(key)).contains(before);
	}

	@Test
	void releaseWithAWrongTokenChangesNothing() {
		IdempotencyKey key = key("wrong-release");
		claim(key, FINGERPRINT_A);
		IdempotencyRecord before = store().find(key).orElseThrow();
		assertThat(store().release(key, UUID.randomUUID())).isFalse();
		assertThat(store().find(key)).contains(before);
	}

	@Test
	void extendLeaseWithAWrongTokenChangesNothing() {
		IdempotencyKey key = key("wrong-extend");
		claim(key, FINGERPRINT_A);
		IdempotencyRecord before = store().find(key).orElseThrow();
		assertThat(store().extendLease(key, UUID.randomUUID(), Duration.ofHours(5))).isFalse();
		assertThat(store().find(key)).contains(before);
	}

	@Test
	void completeReleaseAndExtendLeaseOfAnAbsentKeyChangeNothing() {
		IdempotencyKey key = key("absent-token");
		UUID token = UUID.randomUUID();
		assertThat(store().complete(key, token, response(200, bytes("nobody claimed")), TTL)).isFalse();
		assertThat(store().release(key, token)).isFalse();
		assertThat(store().extendLease(key, token, LEASE)).isFalse();
		assertThat(store().find(key)).isEmpty();
	}

	@Test
	void completeAndReleaseOfACompletedRecordChangeNothing() {
		IdempotencyKey key = key("completed-twice");
		UUID token = claim(key, FINGERPRINT_A);
		assertThat(store().complete(key, token, response(200, bytes("first")), TTL)).isTrue();
		IdempotencyRecord completed = store().find(key).orElseThrow();
		assertThat(store().complete(key, token, response(500, bytes("second")), TTL)).isFalse();
		assertThat(store().release(key, token)).isFalse();
		assertThat(store().extendLease(key, token, LEASE)).isFalse();
		assertThat(store().find(key)).contains(completed);
	}

	@Test
	void releaseGivesTheKeyUpSoThatItCanBeClaimedAgain() {
		IdempotencyKey key = key("release");
		UUID first = claim(key, FINGERPRINT_A);
		assertThat(store().release(key, first)).isTrue();
		assertThat(store().find(key).orElseThrow().status()).isEqualTo(RecordStatus.RELEASED);
		ClaimResult.Claimed again = claimed(store().claim(request(key, FINGERPRINT_B)));
		assertThat(again.token()).isNotEqualTo(first);
		assertThat(again.takenOver()).isFalse();
		assertThat(again.attempt()).isEqualTo(2);
		assertThat(store().find(key).orElseThrow().fingerprint()).isEqualTo(FINGERPRINT_B);
		assertThat(store().complete(key, first, response(200, bytes("late")), TTL)).isFalse();
	}

	/**
	 * A released record keeps what its key went through: its attempts, the failure and its time
	 * by the store's clock; it holds no lease and no response, and expires as long after its
	 * release as the claim's TTL.
	 */
	@Test
	void releaseKeepsTheAttemptsAndTheFailureOfTheKey() {
		IdempotencyKey key = key("release-kept");
		UUID token = claim(key, FINGERPRINT_A);
		Instant before = storeTime();
		assertThat(store().release(key, token, "java.net.SocketTimeoutException")).isTrue();
		Instant after = storeTime();
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.status()).isEqualTo(RecordStatus.RELEASED);
		assertThat(record.isCompleted()).isFalse();
		assertThat(record.token()).isEqualTo(token);
		assertThat(record.fingerprint()).isEqualTo(FINGERPRINT_A);
		assertThat(record.attempts()).isOne();
		assertThat(record.lastFailure()).isEqualTo("java.net.SocketTimeoutException");
		assertThat(record.lastFailureAt()).isBetween(before, after);
		assertThat(record.response()).isNull();
		assertThat(record.lockedUntil()).isNull();
		assertThat(Duration.between(record.lastFailureAt(), record.expiresAt())).isCloseTo(TTL, CLOCK_TOLERANCE);
	}

	@Test
	void releaseWithoutAFailureKeepsTheAttemptAndItsTime() {
		IdempotencyKey key = key("release-untold");
		UUID token = claim(key, FINGERPRINT_A);
		assertThat(store().release(key, token)).isTrue();
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.status()).isEqualTo(RecordStatus.RELEASED);
		assertThat(record.attempts()).isOne();
		assertThat(record.lastFailure()).isNull();
		assertThat(record.lastFailureAt()).isNotNull();
	}

	@Test
	void aReleasedClaimCanNeitherCompleteNorReleaseNorExtendAgain() {
		IdempotencyKey key = key("released-twice");
		UUID token = claim(key, FINGERPRINT_A);
		assertThat(store().release(key, token, "status 503")).isTrue();
		IdempotencyRecord released = store().find(key).orElseThrow();
		assertThat(store().complete(key, token, response(200, bytes("late")), TTL)).isFalse();
		assertThat(store().release(key, token, "status 502")).isFalse();
		assertThat(store().extendLease(key, token, LEASE)).isFalse();
		assertThat(store().find(key)).contains(released);
	}

	/**
	 * Each claim after a release counts one more attempt and keeps the last failure, which the
	 * completed record still shows: how many attempts the key took, and what failed last.
	 */
	@Test
	void claimOfAReleasedKeyCountsOneMoreAttemptAndKeepsTheLastFailure() {
		IdempotencyKey key = key("attempts");
		ClaimResult.Claimed first = claimed(store().claim(request(key, FINGERPRINT_A)));
		assertThat(first.attempt()).isOne();
		assertThat(store().find(key).orElseThrow().lastFailure()).isNull();
		assertThat(store().release(key, first.token(), "status 503")).isTrue();
		ClaimResult.Claimed second = claimed(store().claim(request(key, FINGERPRINT_A)));
		assertThat(second.attempt()).isEqualTo(2);
		assertThat(second.takenOver()).isFalse();
		assertThat(store().release(key, second.token(), "java.io.IOException")).isTrue();
		IdempotencyRecord released = store().find(key).orElseThrow();
		ClaimResult.Claimed third = claimed(store().claim(request(key, FINGERPRINT_A)));
		assertThat(third.attempt()).isEqualTo(3);
		IdempotencyRecord running = store().find(key).orElseThrow();
		assertThat(running.status()).isEqualTo(RecordStatus.IN_PROGRESS);
		assertThat(running.token()).isEqualTo(third.token());
		assertThat(running.attempts()).isEqualTo(3);
		assertThat(running.lastFailure()).isEqualTo("java.io.IOException");
		assertThat(running.lastFailureAt()).isEqualTo(released.lastFailureAt());
		assertThat(store().complete(key, third.token(), response(201, bytes("third time")), TTL)).isTrue();
		IdempotencyRecord completed = store().find(key).orElseThrow();
		assertThat(completed.isCompleted()).isTrue();
		assertThat(completed.attempts()).isEqualTo(3);
		assertThat(completed.lastFailure()).isEqualTo("java.io.IOException");
		assertThat(existing(store().claim(request(key, FINGERPRINT_A))).record()).isEqualTo(completed);
	}

	/**
	 * A released record that expired is forgotten, as an expired completed one is: its key starts
	 * again at attempt 1.
	 */
	@Test
	void claimOfAnExpiredReleasedRecordStartsAgainAtAttemptOne() {
		IdempotencyKey key = key("released-expired");
		UUID token = claim(new ClaimRequest(key, FINGERPRINT_A, LEASE, shortTime()));
		assertThat(store().release(key, token, "status 503")).isTrue();
		// Read once: a store with native expiry may delete the record as soon as it expires.
		awaitStoreTimeAfter(store().find(key).orElseThrow().expiresAt());
		ClaimResult.Claimed claimed = claimed(store().claim(request(key, FINGERPRINT_A)));
		assertThat(claimed.attempt()).isOne();
		assertThat(claimed.takenOver()).isFalse();
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.attempts()).isOne();
		assertThat(record.lastFailure()).isNull();
		assertThat(record.lastFailureAt()).isNull();
	}

	@Test
	void claimOfAnExpiredCompletedRecordStartsAgainAtAttemptOne() {
		IdempotencyKey key = key("completed-expired-attempts");
		UUID first = claim(key, FINGERPRINT_A);
		assertThat(store().release(key, first, "status 503")).isTrue();
		UUID second = claimed(store().claim(request(key, FINGERPRINT_A))).token();
		assertThat(store().complete(key, second, response(200, bytes("second")), shortTime())).isTrue();
		awaitExpiry(key);
		ClaimResult.Claimed claimed = claimed(store().claim(request(key, FINGERPRINT_A)));
		assertThat(claimed.attempt()).isOne();
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.attempts()).isOne();
		assertThat(record.lastFailure()).isNull();
	}

	@Test
	void takeOverOfARunOutLeaseCountsOneMoreAttemptWithTheLeaseAsTheFailure() {
		IdempotencyKey key = key("take-over-attempts");
		claim(new ClaimRequest(key, FINGERPRINT_A, shortTime(), TTL));
		awaitLeaseRunOut(key);
		Instant before = storeTime();
		ClaimResult.Claimed claimed = claimed(store().claim(request(key, FINGERPRINT_A)));
		assertThat(claimed.takenOver()).isTrue();
		assertThat(claimed.attempt()).isEqualTo(2);
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.attempts()).isEqualTo(2);
		assertThat(record.lastFailure()).isEqualTo(IdempotencyRecord.LEASE_EXPIRED);
		assertThat(record.lastFailureAt()).isAfterOrEqualTo(before);
	}

	@Test
	void extendLeasePushesTheLeaseOutWithTheToken() {
		IdempotencyKey key = key("extend");
		UUID token = claimed(store().claim(new ClaimRequest(key, FINGERPRINT_A, Duration.ofSeconds(5), TTL))).token();
		assertThat(store().extendLease(key, token, Duration.ofMinutes(10))).isTrue();
		ClaimResult.Existing existing = existing(store().claim(request(key, FINGERPRINT_A)));
		assertThat(existing.leaseRemaining()).isGreaterThan(Duration.ofMinutes(9));
		assertThat(existing.record().token()).isEqualTo(token);
	}

	@Test
	void extendLeaseAfterTheLeaseRanOutKeepsTheKeyWhenNobodyTookItOver() {
		IdempotencyKey key = key("extend-late");
		UUID token = claim(new ClaimRequest(key, FINGERPRINT_A, shortTime(), TTL));
		awaitLeaseRunOut(key);
		assertThat(store().extendLease(key, token, LEASE)).isTrue();
		ClaimResult.Existing existing = existing(store().claim(request(key, FINGERPRINT_A)));
		assertThat(existing.record().token()).isEqualTo(token);
		assertThat(existing.leaseRemaining()).isPositive();
	}

	@Test
	void expiredCompletedRecordIsTreatedAsAbsent() {
		IdempotencyKey key = key("expired");
		UUID first = claim(key, FINGERPRINT_A);
		assertThat(store().complete(key, first, response(200, bytes("old")), shortTime())).isTrue();
		awaitExpiry(key);
		ClaimResult.Claimed claimed = claimed(store().claim(request(key, FINGERPRINT_B)));
		assertThat(claimed.token()).isNotEqualTo(first);
		assertThat(claimed.takenOver()).isFalse();
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS);
		assertThat(record.token()).isEqualTo(claimed.token());
		assertThat(record.fingerprint()).isEqualTo(FINGERPRINT_B);
		assertThat(record.response()).isNull();
		assertThat(record.completedAt()).isNull();
		assertThat(record.expiresAt()).isAfter(record.createdAt().plus(TTL).minus(CLOCK_TOLERANCE));
		assertThat(store().complete(key, first, response(200, bytes("old again")), TTL)).isFalse();
	}

	/**
	 * A record in progress keeps its key while its lease lives, even past its expiry: the TTL is
	 * how long a completed response is replayed, not how long an operation may run.
	 */
	@Test
	void expiredRecordInProgressWithALiveLeaseKeepsItsKey() {
		IdempotencyKey key = key("expired-running");
		UUID running = claim(new ClaimRequest(key, FINGERPRINT_A, LEASE, shortTime()));
		awaitExpiry(key);
		ClaimResult.Existing existing = existing(store().claim(request(key, FINGERPRINT_A)));
		assertThat(existing.record().token()).isEqualTo(running);
		assertThat(existing.leaseRemaining()).isPositive();
		assertThat(store().claim(request(key, FINGERPRINT_B))).isInstanceOf(ClaimResult.Existing.class);
		assertThat(store().complete(key, running, response(200, bytes("finished")), TTL)).isTrue();
		assertThat(store().find(key).orElseThrow().response().body()).isEqualTo(bytes("finished"));
	}

	@Test
	void expiredRecordInProgressWhoseLeaseRanOutIsTreatedAsAbsent() {
		IdempotencyKey key = key("expired-stuck");
		UUID stuck = claim(new ClaimRequest(key, FINGERPRINT_A, shortTime(), shortTime()));
		IdempotencyRecord held = store().find(key).orElseThrow();
		// Read once: a store with native expiry may delete the record as soon as both have passed.
		awaitStoreTimeAfter(latest(held.expiresAt(), held.lockedUntil()));
		ClaimResult.Claimed claimed = claimed(store().claim(request(key, FINGERPRINT_B)));
		assertThat(claimed.token()).isNotEqualTo(stuck);
		assertThat(store().complete(key, stuck, response(200, bytes("late")), TTL)).isFalse();
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.token()).isEqualTo(claimed.token());
		assertThat(record.fingerprint()).isEqualTo(FINGERPRINT_B);
	}

	/**
	 * {@link IdempotencyStore#find} does not judge expiry: it returns an expired record as stored,
	 * unless the store has already deleted it, as a purge or a native expiry may at any time.
	 */
	@Test
	void findOfAnExpiredRecordReturnsItAsStoredOrNothing() {
		IdempotencyKey key = key("find-expired");
		UUID token = claim(key, FINGERPRINT_A);
		StoredResponse response = response(200, bytes("kept"));
		assertThat(store().complete(key, token, response, shortTime())).isTrue();
		IdempotencyRecord completed = store().find(key).orElseThrow();
		awaitExpiry(key);
		assertThat(store().find(key)).satisfiesAnyOf((found) -> assertThat(found).isEmpty(),
				(found) -> assertThat(found).contains(completed));
	}

	@Test
	void findOfAnAbsentKeyIsEmpty() {
		assertThat(store().find(key("never-claimed"))).isEmpty();
	}

	@Test
	void runOutLeaseWithTheSameFingerprintIsTakenOverWithANewToken() {
		IdempotencyKey key = key("take-over");
		UUID old = claim(new ClaimRequest(key, FINGERPRINT_A, shortTime(), TTL));
		awaitLeaseRunOut(key);
		ClaimResult.Claimed claimed = claimed(store().claim(request(key, FINGERPRINT_A)));
		assertThat(claimed.takenOver()).isTrue();
		assertThat(claimed.token()).isNotEqualTo(old);
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS);
		assertThat(record.token()).isEqualTo(claimed.token());
		assertThat(Duration.between(record.createdAt(), record.lockedUntil())).isCloseTo(LEASE, CLOCK_TOLERANCE);
	}

	@Test
	void previousOwnerCannotCompleteReleaseOrExtendAfterATakeOver() {
		IdempotencyKey key = key("fenced");
		UUID old = claim(new ClaimRequest(key, FINGERPRINT_A, shortTime(), TTL));
		awaitLeaseRunOut(key);
		UUID current = claimed(store().claim(request(key, FINGERPRINT_A))).token();
		assertThat(store().complete(key, old, response(200, bytes("old owner")), TTL)).isFalse();
		assertThat(store().release(key, old)).isFalse();
		assertThat(store().extendLease(key, old, LEASE)).isFalse();
		assertThat(store().find(key).orElseThrow().token()).isEqualTo(current);
		assertThat(store().complete(key, current, response(201, bytes("new owner")), TTL)).isTrue();
		assertThat(store().complete(key, old, response(200, bytes("old owner")), TTL)).isFalse();
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.token()).isEqualTo(current);
		assertThat(record.response().status()).isEqualTo(201);
		assertThat(record.response().body()).isEqualTo(bytes("new owner"));
	}

	@Test
	void runOutLeaseWithAnotherFingerprintIsNotTakenOver() {
		IdempotencyKey key = key("no-take-over");
		UUID old = claim(new ClaimRequest(key, FINGERPRINT_A, shortTime(), TTL));
		awaitLeaseRunOut(key);
		ClaimResult.Existing existing = existing(store().claim(request(key, FINGERPRINT_B)));
		assertThat(existing.record().token()).isEqualTo(old);
		assertThat(existing.record().fingerprint()).isEqualTo(FINGERPRINT_A);
		assertThat(existing.record().status()).isEqualTo(RecordStatus.IN_PROGRESS);
		assertThat(existing.leaseRemaining()).isZero();
		assertThat(store().complete(key, old, response(200, bytes("still mine")), TTL)).isTrue();
		assertThat(store().find(key).orElseThrow().response().body()).isEqualTo(bytes("still mine"));
	}

	@Test
	void completedRecordIsNeverTakenOver() {
		IdempotencyKey key = key("completed-kept");
		UUID token = claim(new ClaimRequest(key, FINGERPRINT_A, shortTime(), TTL));
		assertThat(store().complete(key, token, response(200, bytes("done")), TTL)).isTrue();
		IdempotencyRecord completed = store().find(key).orElseThrow();
		awaitStoreTimeAfter(completed.createdAt().plus(shortTime()));
		assertThat(existing(store().claim(request(key, FINGERPRINT_A))).record()).isEqualTo(completed);
		assertThat(existing(store().claim(request(key, FINGERPRINT_B))).record()).isEqualTo(completed);
	}

	@Test
	void keysAreScopedByTenant() {
		IdempotencyKey mine = key("shared");
		IdempotencyKey theirs = new IdempotencyKey(mine.tenant() + "-other", mine.operation(), mine.key());
		UUID myToken = claim(mine, FINGERPRINT_A);
		assertThat(store().complete(mine, myToken, response(200, bytes("mine")), TTL)).isTrue();
		UUID theirToken = claim(theirs, FINGERPRINT_B);
		assertThat(store().complete(theirs, myToken, response(200, bytes("cross")), TTL)).isFalse();
		assertThat(store().release(theirs, myToken)).isFalse();
		assertThat(store().complete(theirs, theirToken, response(202, bytes("theirs")), TTL)).isTrue();
		assertThat(store().find(mine).orElseThrow().response().body()).isEqualTo(bytes("mine"));
		assertThat(store().find(theirs).orElseThrow().response().body()).isEqualTo(bytes("theirs"));
	}

	@Test
	void keysAreScopedByOperation() {
		IdempotencyKey payments = new IdempotencyKey(tenant(), "POST /payments", "same-key");
		IdempotencyKey refunds = new IdempotencyKey(tenant(), "POST /refunds", "same-key");
		UUID paymentToken = claim(payments, FINGERPRINT_A);
		UUID refundToken = claim(refunds, FINGERPRINT_A);
		assertThat(store().release(refunds, paymentToken)).isFalse();
		assertThat(store().release(refunds, refundToken)).isTrue();
		assertThat(store().find(refunds).orElseThrow().status()).isEqualTo(RecordStatus.RELEASED);
		assertThat(store().find(payments).orElseThrow().token()).isEqualTo(paymentToken);
	}

	/**
	 * A store that joins tenant, operation and key into one string must escape or length-prefix
	 * them: these keys would all collide if it joined them with a separator.
	 */
	@Test
	void keysWhosePartsJoinAlikeNeverCollide() {
		String t = tenant();
		List<IdempotencyKey> keys = new ArrayList<>();
		for (String separator : List.of(":", "|", "/", "::", "\\", "\t")) {
			keys.add(new IdempotencyKey(t + separator + "a", "b", "c"));
			keys.add(new IdempotencyKey(t, "a" + separator + "b", "c"));
			keys.add(new IdempotencyKey(t, "a", "b" + separator + "c"));
			keys.add(new IdempotencyKey(t + separator, "a", "b" + separator + "c"));
		}
		keys.add(new IdempotencyKey(t, "{a}", "b"));
		keys.add(new IdempotencyKey(t, "{a", "}b"));
		keys.add(new IdempotencyKey(t + "{", "a}", "b"));
		keys.add(new IdempotencyKey(t + "}", "{a", "b"));
		keys.add(new IdempotencyKey(t, "a", "{b}"));
		keys.add(new IdempotencyKey(t, "a", "{}"));
		keys.add(new IdempotencyKey(t, "a", "*"));
		keys.add(new IdempotencyKey(t, "a", "%"));
		keys.add(new IdempotencyKey(t, "a", "_"));
		keys.add(new IdempotencyKey(t, "a", "b c"));
		keys.add(new IdempotencyKey(t, "a", "b\"c'"));
		assertEveryKeyIsItsOwn(keys);
	}

	/**
	 * Keys are compared as exact strings: neither case nor Unicode normalization makes two keys
	 * one.
	 */
	@Test
	void keysDifferingInCaseOrUnicodeFormNeverCollide() {
		String t = tenant();
		List<IdempotencyKey> keys = List.of(new IdempotencyKey(t, "create-payment", "key"),
				new IdempotencyKey(t, "create-payment", "KEY"), new IdempotencyKey(t, "Create-Payment", "key"),
				new IdempotencyKey(t.toUpperCase(), "create-payment", "key"),
				new IdempotencyKey(t, "caf\u00e9", "cl\u00e9"), new IdempotencyKey(t, "cafe\u0301", "cl\u00e9"),
				new IdempotencyKey(t, "caf\u00e9", "cle\u0301"), new IdempotencyKey(t + "-\u65e5\u672c", "\u652f\u6255",
						"\ud83d\udcb8"),
				new IdempotencyKey(t + "-\u65e5\u672c", "\u652f\u6255", "\ud83d\udcb3"),
				new IdempotencyKey(t, "a", "\u00df"), new IdempotencyKey(t, "a", "ss"), new IdempotencyKey(t, "a", "a "),
				new IdempotencyKey(t, "a", "a"), new IdempotencyKey(t, "a", " a"));
		assertEveryKeyIsItsOwn(keys);
	}

	@Test
	void storesKeysTenantsAndOperationsOfTheMaximumLength() {
		IdempotencyKey key = new IdempotencyKey(tenant() + "x".repeat(255 - tenant().length()), "o".repeat(255),
				"k".repeat(255));
		UUID token = claim(key, FINGERPRINT_A);
		assertThat(store().complete(key, token, response(200, bytes("long")), TTL)).isTrue();
		assertThat(store().find(key).orElseThrow().key()).isEqualTo(key);
	}

	@Test
	void concurrentCompletionsOutsideTransactionsOfManyKeysEachStoreTheirOwnResponse() throws Exception {
		List<IdempotencyKey> keys = new ArrayList<>();
		List<UUID> tokens = new ArrayList<>();
		for (int i = 0; i < threads(); i++) {
			IdempotencyKey key = key("complete-outside-" + i);
			keys.add(key);
			tokens.add(claim(key, FINGERPRINT_A));
		}
		// One completion carries a token its claim never had: it must store nothing.
		UUID stranger = UUID.randomUUID();
		List<Boolean> stored = Race.run(threads(), (thread) -> store().completeOutsideTransaction(keys.get(thread),
				(thread == 0) ? stranger : tokens.get(thread),
				response(201, ("body " + thread).getBytes(StandardCharsets.UTF_8)), TTL));
		for (int i = 0; i < keys.size(); i++) {
			IdempotencyRecord record = store().find(keys.get(i)).orElseThrow();
			if (i == 0) {
				assertThat(stored.get(i)).isFalse();
				assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS);
			}
			else {
				assertThat(stored.get(i)).isTrue();
				assertThat(record.status()).isEqualTo(RecordStatus.COMPLETED);
				assertThat(record.token()).isEqualTo(tokens.get(i));
				assertThat(record.response().body()).asString(StandardCharsets.UTF_8).isEqualTo("body " + i);
			}
		}
	}

	@Test
	void concurrentClaimsOfAnAbsentKeyHaveExactlyOneWinner() throws Exception {
		for (int i = 0; i < 25; i++) {
			IdempotencyKey key = key("race-absent-" + i);
			List<ClaimResult> results = Race.run(threads(), (thread) -> store().claim(request(key, FINGERPRINT_A)));
			UUID winner = singleWinner(results, false);
			assertThat(existingTokens(results)).containsOnly(winner);
			assertThat(store().find(key).orElseThrow().token()).isEqualTo(winner);
		}
	}

	@Test
	void concurrentRetriesOfARunOutLeaseTakeItOverExactlyOnce() throws Exception {
		List<IdempotencyKey> keys = new ArrayList<>();
		List<UUID> crashed = new ArrayList<>();
		Instant lastLeaseEnd = Instant.MIN;
		for (int i = 0; i < 25; i++) {
			IdempotencyKey key = key("race-run-out-" + i);
			keys.add(key);
			crashed.add(claim(new ClaimRequest(key, FINGERPRINT_A, shortTime(), TTL)));
			lastLeaseEnd = latest(lastLeaseEnd, store().find(key).orElseThrow().lockedUntil());
		}
		awaitStoreTimeAfter(lastLeaseEnd);
		for (int i = 0; i < keys.size(); i++) {
			IdempotencyKey key = keys.get(i);
			List<ClaimResult> results = Race.run(threads(), (thread) -> store().claim(request(key, FINGERPRINT_A)));
			UUID winner = singleWinner(results, true);
			assertThat(winner).isNotEqualTo(crashed.get(i));
			assertThat(existingTokens(results)).containsOnly(winner);
			assertThat(store().complete(key, crashed.get(i), response(200, bytes("crashed")), TTL)).isFalse();
			assertThat(store().find(key).orElseThrow().token()).isEqualTo(winner);
		}
	}

	@Test
	void concurrentRetriesOfAReleasedKeyClaimItExactlyOnceWithTheNextAttempt() throws Exception {
		for (int i = 0; i < 25; i++) {
			IdempotencyKey key = key("race-released-" + i);
			UUID first = claim(key, FINGERPRINT_A);
			assertThat(store().release(key, first, "status 503")).isTrue();
			List<ClaimResult> results = Race.run(threads(), (thread) -> store().claim(request(key, FINGERPRINT_A)));
			UUID winner = singleWinner(results, false);
			assertThat(results).filteredOn(ClaimResult.Claimed.class::isInstance)
				.singleElement()
				.satisfies((claimed) -> assertThat(((ClaimResult.Claimed) claimed).attempt()).isEqualTo(2));
			assertThat(existingTokens(results)).containsOnly(winner);
			IdempotencyRecord record = store().find(key).orElseThrow();
			assertThat(record.token()).isEqualTo(winner);
			assertThat(record.attempts()).isEqualTo(2);
		}
	}

	@Test
	void concurrentRetriesOfAnExpiredRecordClaimItExactlyOnce() throws Exception {
		List<IdempotencyKey> keys = new ArrayList<>();
		Instant lastExpiry = Instant.MIN;
		for (int i = 0; i < 25; i++) {
			IdempotencyKey key = key("race-expired-" + i);
			keys.add(key);
			UUID first = claim(key, FINGERPRINT_A);
			assertThat(store().complete(key, first, response(200, new byte[] { 1 }), shortTime())).isTrue();
			lastExpiry = latest(lastExpiry, store().find(key).orElseThrow().expiresAt());
		}
		awaitStoreTimeAfter(lastExpiry);
		for (IdempotencyKey key : keys) {
			List<ClaimResult> results = Race.run(threads(), (thread) -> store().claim(request(key, FINGERPRINT_B)));
			UUID winner = singleWinner(results, false);
			assertThat(existingTokens(results)).containsOnly(winner);
			IdempotencyRecord record = store().find(key).orElseThrow();
			assertThat(record.token()).isEqualTo(winner);
			assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS);
		}
	}

	/**
	 * Threads holding one token race to complete and release it: exactly one call succeeds, and
	 * the record is what that call left.
	 */
	@Test
	void concurrentCompletionsAndReleasesOfOneClaimSucceedExactlyOnce() throws Exception {
		for (int i = 0; i < 10; i++) {
			IdempotencyKey key = key("race-finish-" + i);
			UUID token = claim(key, FINGERPRINT_A);
			List<Boolean> results = Race.run(threads(),
					(thread) -> (thread % 2 == 0) ? store().complete(key, token, response(200, bytes("thread " + thread)),
							TTL) : store().release(key, token));
			assertThat(results).filteredOn(Boolean::booleanValue).hasSize(1);
			int winner = results.indexOf(true);
			if (winner % 2 == 0) {
				IdempotencyRecord record = store().find(key).orElseThrow();
				assertThat(record.token()).isEqualTo(token);
				assertThat(record.response().body()).isEqualTo(bytes("thread " + winner));
			}
			else {
				assertThat(store().find(key).orElseThrow().status()).isEqualTo(RecordStatus.RELEASED);
			}
		}
	}

	/**
	 * The stalled holder of a run-out lease extends it while retries try to take it over: either
	 * the extension comes first and no retry takes the key, or a retry takes it and no later
	 * extension succeeds.
	 */
	@Test
	void extensionsRacingATakeOverEitherKeepTheClaimOrLoseIt() throws Exception {
		for (int i = 0; i < 5; i++) {
			IdempotencyKey key = key("race-extend-" + i);
			UUID stalled = claim(new ClaimRequest(key, FINGERPRINT_A, shortTime(), TTL));
			awaitLeaseRunOut(key);
			List<Object> results = Race.run(threads(), (thread) -> (thread % 2 == 0)
					? store().claim(request(key, FINGERPRINT_A)) : store().extendLease(key, stalled, LEASE));
			List<ClaimResult.Claimed> takeOvers = results.stream()
				.filter(ClaimResult.Claimed.class::isInstance)
				.map(ClaimResult.Claimed.class::cast)
				.toList();
			List<Object> extensions = results.stream().filter(Boolean.class::isInstance).toList();
			IdempotencyRecord record = store().find(key).orElseThrow();
			if (takeOvers.isEmpty()) {
				assertThat(extensions).containsOnly(true);
				assertThat(record.token()).isEqualTo(stalled);
			}
			else {
				assertThat(takeOvers).hasSize(1);
				assertThat(takeOvers.get(0).takenOver()).isTrue();
				assertThat(record.token()).isEqualTo(takeOvers.get(0).token());
				assertThat(store().complete(key, stalled, response(200, bytes("stalled")), TTL)).isFalse();
			}
		}
	}

	/**
	 * Threads claim a few keys at random and then complete, release or stall them (a stalled
	 * claim's lease runs out, as if its holder had hung, and its holder later tries to complete,
	 * release or extend it anyway); completed records expire after a short TTL. At no time may two
	 * threads hold a live claim on one key, a live holder must always be able to finish, a run-out
	 * lease must be taken over by a retry of the same request, no claim may finish twice, and every
	 * replayed response must be the one its token holder wrote.
	 */
	@Test
	void randomClaimsCompletionsReleasesAndStallsKeepAtMostOneLiveClaimPerKey() throws Exception {
		fuzz(4, 400);
	}

	@Test
	void randomClaimsCompletionsReleasesAndStallsOfOneKeyKeepAtMostOneLiveClaim() throws Exception {
		fuzz(1, 200);
	}

	private void fuzz(int keyCount, int rounds) throws Exception {
		IdempotencyKey[] keys = new IdempotencyKey[keyCount];
		for (int k = 0; k < keyCount; k++) {
			keys[k] = key("fuzz-" + k);
		}
		ClaimFuzz fuzz = new ClaimFuzz(store(), keys, FINGERPRINT_A, FINGERPRINT_B, shortTime());
		ExecutorService executor = Executors.newFixedThreadPool(threads());
		try {
			List<Future<?>> workers = new ArrayList<>();
			// Rounds go on past their number until every path was taken, for at most two minutes: a loaded
			// machine takes the rarer paths later.
			long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
			for (int t = 0; t < threads(); t++) {
				workers.add(executor.submit(() -> fuzz.run(rounds, deadline)));
			}
			for (Future<?> worker : workers) {
				worker.get(5, TimeUnit.MINUTES);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(fuzz.violations).isEmpty();
		long expiries = 0;
		for (int k = 0; k < keyCount; k++) {
			IdempotencyRecord record = store().find(keys[k]).orElse(null);
			long stillHeld = (record != null && record.status() == RecordStatus.IN_PROGRESS) ? 1 : 0;
			long finished = fuzz.completed.get(k) + fuzz.released.get(k) + stillHeld;
			// Every claim neither finished nor still held stalled and was then taken over. A
			// take-over may also report replacing a claim that was read as stalled but finished
			// and expired just before, so take-overs bound those claims from above.
			assertThat(fuzz.claimed.get(k) - finished).as("claims of key %d neither finished nor held", k)
				.isBetween(0L, fuzz.takenOver.get(k));
			if (record != null && record.isCompleted()) {
				assertThat(fuzz.successfulCompletions).containsKey(record.token());
				assertThat(record.response().body()).isEqualTo(fuzz.intendedBodies.get(record.token()));
			}
			expiries += fuzz.expiredAndReplaced(k, record);
		}
		assertThat(ClaimFuzz.sum(fuzz.completed)).as("completions").isGreaterThan(0);
		assertThat(ClaimFuzz.sum(fuzz.released)).as("releases").isGreaterThan(0);
		assertThat(ClaimFuzz.sum(fuzz.takenOver)).as("take-overs").isGreaterThan(0);
		assertThat(expiries).as("completed records that expired and were claimed again").isGreaterThan(0);
		assertThat(ClaimFuzz.sum(fuzz.replays)).as("replays").isGreaterThan(0);
		assertThat(ClaimFuzz.sum(fuzz.conflicts)).as("conflicts").isGreaterThan(0);
		assertThat(ClaimFuzz.sum(fuzz.staleAttemptsRefused)).as("refused late attempts").isGreaterThan(0);
		assertThat(ClaimFuzz.sum(fuzz.revivals)).as("leases extended late").isGreaterThan(0);
	}

	private void assertEveryKeyIsItsOwn(List<IdempotencyKey> keys) {
		assertThat(keys).doesNotHaveDuplicates();
		Map<IdempotencyKey, UUID> tokens = new LinkedHashMap<>();
		for (IdempotencyKey key : keys) {
			ClaimResult result = store().claim(request(key, FINGERPRINT_A));
			assertThat(result).as("claim of %s", describe(key)).isInstanceOf(ClaimResult.Claimed.class);
			tokens.put(key, ((ClaimResult.Claimed) result).token());
		}
		int i = 0;
		for (Map.Entry<IdempotencyKey, UUID> claimed : tokens.entrySet()) {
			assertThat(store().complete(claimed.getKey(), claimed.getValue(), response(200, bytes("key " + i++)), TTL))
				.as("completion of %s", describe(claimed.getKey()))
				.isTrue();
		}
		i = 0;
		for (IdempotencyKey key : keys) {
			IdempotencyRecord record = store().find(key).orElseThrow();
			assertThat(record.key()).isEqualTo(key);
			assertThat(record.token()).isEqualTo(tokens.get(key));
			assertThat(record.response().body()).as("response of %s", describe(key)).isEqualTo(bytes("key " + i++));
		}
	}

	private static String describe(IdempotencyKey key) {
		return "[" + key.tenant() + "][" + key.operation() + "][" + key.key() + "]";
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
		assertThat(tokens).hasSize(results.size() - 1);
		return tokens;
	}

	private static byte[] allByteValues() {
		byte[] bytes = new byte[512];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = (byte) (i * 7);
		}
		return bytes;
	}

}
