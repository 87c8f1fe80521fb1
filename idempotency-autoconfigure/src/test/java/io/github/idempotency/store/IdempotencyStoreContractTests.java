package io.github.idempotency.store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.github.idempotency.core.IdempotencyKey;
import io.github.idempotency.core.KeyHashes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The behaviour every {@link IdempotencyStore} must have. Each test works on keys of a tenant of
 * its own, so that tests share a database without seeing each other's records.
 */
public abstract class IdempotencyStoreContractTests {

	protected static final Duration LEASE = Duration.ofMinutes(1);

	protected static final Duration TTL = Duration.ofHours(1);

	protected static final String FINGERPRINT_A = KeyHashes.sha256Hex("request a");

	protected static final String FINGERPRINT_B = KeyHashes.sha256Hex("request b");

	private static final Duration CLOCK_TOLERANCE = Duration.ofSeconds(2);

	private final String tenant = "tenant-" + UUID.randomUUID();

	/**
	 * Return the store under test, with its schema in place.
	 * @return the store
	 */
	protected abstract IdempotencyStore store();

	/**
	 * Move the expiry of a record into the past, as if its TTL had run out.
	 * @param key the key of the record
	 */
	protected abstract void expire(IdempotencyKey key);

	/**
	 * Move the lease of a record into the past, as if its holder had crashed.
	 * @param key the key of the record
	 */
	protected abstract void runOutLease(IdempotencyKey key);

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
	void releaseDeletesTheRecordSoThatTheKeyCanBeClaimedAgain() {
		IdempotencyKey key = key("release");
		UUID first = claim(key, FINGERPRINT_A);
		assertThat(store().release(key, first)).isTrue();
		assertThat(store().find(key)).isEmpty();
		ClaimResult.Claimed again = claimed(store().claim(request(key, FINGERPRINT_B)));
		assertThat(again.token()).isNotEqualTo(first);
		assertThat(again.takenOver()).isFalse();
		assertThat(store().find(key).orElseThrow().fingerprint()).isEqualTo(FINGERPRINT_B);
		assertThat(store().complete(key, first, response(200, bytes("late")), TTL)).isFalse();
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
		UUID token = claim(key, FINGERPRINT_A);
		runOutLease(key);
		assertThat(store().extendLease(key, token, LEASE)).isTrue();
		ClaimResult.Existing existing = existing(store().claim(request(key, FINGERPRINT_A)));
		assertThat(existing.record().token()).isEqualTo(token);
		assertThat(existing.leaseRemaining()).isPositive();
	}

	@Test
	void expiredCompletedRecordIsTreatedAsAbsent() {
		IdempotencyKey key = key("expired");
		UUID first = claim(key, FINGERPRINT_A);
		assertThat(store().complete(key, first, response(200, bytes("old")), TTL)).isTrue();
		expire(key);
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
	}

	/**
	 * A record in progress keeps its key while its lease lives, even past its expiry: the TTL is
	 * how long a completed response is replayed, not how long an operation may run.
	 */
	@Test
	void expiredRecordInProgressWithALiveLeaseKeepsItsKey() {
		IdempotencyKey key = key("expired-running");
		UUID running = claim(key, FINGERPRINT_A);
		expire(key);
		ClaimResult.Existing existing = existing(store().claim(request(key, FINGERPRINT_A)));
		assertThat(existing.record().token()).isEqualTo(running);
		assertThat(existing.leaseRemaining()).isPositive();
		assertThat(store().claim(request(key, FINGERPRINT_B))).isInstanceOf(ClaimResult.Existing.class);
		assertThat(store().complete(key, running, response(200, bytes("finished")), TTL)).isTrue();
	}

	@Test
	void expiredRecordInProgressWhoseLeaseRanOutIsTreatedAsAbsent() {
		IdempotencyKey key = key("expired-stuck");
		UUID stuck = claim(key, FINGERPRINT_A);
		expire(key);
		runOutLease(key);
		ClaimResult.Claimed claimed = claimed(store().claim(request(key, FINGERPRINT_B)));
		assertThat(claimed.token()).isNotEqualTo(stuck);
		assertThat(store().complete(key, stuck, response(200, bytes("late")), TTL)).isFalse();
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.token()).isEqualTo(claimed.token());
		assertThat(record.fingerprint()).isEqualTo(FINGERPRINT_B);
	}

	@Test
	void findReturnsAnExpiredRecordAsStored() {
		IdempotencyKey key = key("find-expired");
		UUID token = claim(key, FINGERPRINT_A);
		assertThat(store().complete(key, token, response(200, bytes("kept")), TTL)).isTrue();
		expire(key);
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.expiresAt()).isBefore(Instant.now());
		assertThat(record.response().body()).isEqualTo(bytes("kept"));
	}

	@Test
	void findOfAnAbsentKeyIsEmpty() {
		assertThat(store().find(key("never-claimed"))).isEmpty();
	}

	@Test
	void runOutLeaseWithTheSameFingerprintIsTakenOverWithANewToken() {
		IdempotencyKey key = key("take-over");
		UUID old = claim(key, FINGERPRINT_A);
		runOutLease(key);
		ClaimResult.Claimed claimed = claimed(store().claim(request(key, FINGERPRINT_A)));
		assertThat(claimed.takenOver()).isTrue();
		assertThat(claimed.token()).isNotEqualTo(old);
		IdempotencyRecord record = store().find(key).orElseThrow();
		assertThat(record.status()).isEqualTo(RecordStatus.IN_PROGRESS);
		assertThat(record.token()).isEqualTo(claimed.token());
		assertThat(record.lockedUntil()).isAfter(Instant.now().minus(CLOCK_TOLERANCE));
	}

	@Test
	void previousOwnerCannotCompleteReleaseOrExtendAfterATakeOver() {
		IdempotencyKey key = key("fenced");
		UUID old = claim(key, FINGERPRINT_A);
		runOutLease(key);
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
		UUID old = claim(key, FINGERPRINT_A);
		runOutLease(key);
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
		UUID token = claim(key, FINGERPRINT_A);
		assertThat(store().complete(key, token, response(200, bytes("done")), TTL)).isTrue();
		IdempotencyRecord completed = store().find(key).orElseThrow();
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
		IdempotencyKey payments = new IdempotencyKey(this.tenant, "POST /payments", "same-key");
		IdempotencyKey refunds = new IdempotencyKey(this.tenant, "POST /refunds", "same-key");
		UUID paymentToken = claim(payments, FINGERPRINT_A);
		UUID refundToken = claim(refunds, FINGERPRINT_A);
		assertThat(store().release(refunds, paymentToken)).isFalse();
		assertThat(store().release(refunds, refundToken)).isTrue();
		assertThat(store().find(refunds)).isEmpty();
		assertThat(store().find(payments).orElseThrow().token()).isEqualTo(paymentToken);
	}

	@Test
	void storesKeysTenantsAndOperationsOfTheMaximumLength() {
		IdempotencyKey key = new IdempotencyKey(this.tenant + "x".repeat(255 - this.tenant.length()), "o".repeat(255),
				"k".repeat(255));
		UUID token = claim(key, FINGERPRINT_A);
		assertThat(store().complete(key, token, response(200, bytes("long")), TTL)).isTrue();
		assertThat(store().find(key).orElseThrow().key()).isEqualTo(key);
	}

	protected final IdempotencyKey key(String name) {
		return new IdempotencyKey(this.tenant, "POST /payments", name);
	}

	protected final UUID claim(IdempotencyKey key, String fingerprint) {
		ClaimResult.Claimed claimed = claimed(store().claim(request(key, fingerprint)));
		assertThat(claimed.takenOver()).isFalse();
		return claimed.token();
	}

	protected static ClaimRequest request(IdempotencyKey key, String fingerprint) {
		return new ClaimRequest(key, fingerprint, LEASE, TTL);
	}

	protected static ClaimResult.Claimed claimed(ClaimResult result) {
		assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
		return (ClaimResult.Claimed) result;
	}

	protected static ClaimResult.Existing existing(ClaimResult result) {
		assertThat(result).isInstanceOf(ClaimResult.Existing.class);
		return (ClaimResult.Existing) result;
	}

	protected static StoredResponse response(int status, byte[] body) {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		headers.put("Content-Type", List.of("application/json"));
		headers.put("Location", List.of("/payments/42"));
		headers.put("X-Trace", List.of("a", "b: c"));
		return new StoredResponse(status, headers, body);
	}

	protected static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] allByteValues() {
		byte[] bytes = new byte[512];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = (byte) (i * 7);
		}
		return bytes;
	}

}
