package io.github.idempotency.testsupport.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every part of the published store contract shares: the store under test, the time it
 * keeps, keys of a tenant of the test's own and the waits on the store's clock. Extend
 * {@link IdempotencyStoreContractTests} for what every store must do, and
 * {@link SequencingIdempotencyStoreContractTests} and {@link ReferencingIdempotencyStoreContractTests}
 * for the capabilities a store offers.
 * <p>
 * The tests use the store through the SPI only. Each test works on keys of a tenant of its own, so
 * that tests share one store without resetting it. Where time must pass (a lease runs out, a
 * record expires), a test uses a lease or TTL of {@link #shortTime()} and polls the store until its
 * own clock has passed that instant: the store's time is read from the creation time of a probe
 * claim, so the JVM's clock never decides.
 */
public abstract class IdempotencyStoreContractSupport {

	/**
	 * The lease of a claim that is to stay live for the whole test.
	 */
	protected static final Duration LEASE = Duration.ofMinutes(1);

	/**
	 * The TTL of a record that is to stay live for the whole test.
	 */
	protected static final Duration TTL = Duration.ofHours(1);

	/**
	 * The fingerprint of most requests: the SHA-256 of {@code request a}, in hex.
	 */
	protected static final String FINGERPRINT_A = sha256Hex("request a");

	/**
	 * The fingerprint of a request that reuses a key with another body.
	 */
	protected static final String FINGERPRINT_B = sha256Hex("request b");

	/**
	 * How far apart a store's record times and the durations asked for may be.
	 */
	protected static final Duration CLOCK_TOLERANCE = Duration.ofSeconds(2);

	private final String tenant = "tenant-" + UUID.randomUUID();

	/**
	 * Return the store under test, ready for use; one store may serve every test.
	 * @return the store
	 */
	protected abstract IdempotencyStore store();

	/**
	 * Return a lease or TTL short enough to wait out in a test and long enough for the store to
	 * tell apart from no time at all: the store must keep time at least this precisely.
	 * @return 200 milliseconds, unless overridden
	 */
	protected Duration shortTime() {
		return Duration.ofMillis(200);
	}

	/**
	 * Return how many threads race in the concurrency tests; the store should serve that many
	 * calls at once (with a connection pool at least that big, for instance).
	 * @return 16, unless overridden
	 */
	protected int threads() {
		return 16;
	}

	/**
	 * Return the tenant of this test's keys and sequence scopes, of its own.
	 * @return the tenant
	 */
	protected final String tenant() {
		return this.tenant;
	}

	/**
	 * Return a key of this test's own tenant.
	 * @param name the key
	 * @return the key, for the operation {@code POST /payments}
	 */
	protected final IdempotencyKey key(String name) {
		return new IdempotencyKey(this.tenant, "POST /payments", name);
	}

	/**
	 * Claim an absent key with {@link #LEASE} and {@link #TTL}, asserting that it was claimed.
	 * @param key the key
	 * @param fingerprint the fingerprint
	 * @return the fencing token
	 */
	protected final UUID claim(IdempotencyKey key, String fingerprint) {
		return claim(request(key, fingerprint));
	}

	/**
	 * Claim an absent key, asserting that it was claimed.
	 * @param request the claim
	 * @return the fencing token
	 */
	protected final UUID claim(ClaimRequest request) {
		ClaimResult.Claimed claimed = claimed(store().claim(request));
		assertThat(claimed.takenOver()).isFalse();
		return claimed.token();
	}

	/**
	 * Return the store's current time: the creation time of a probe claim, which is then released.
	 * @return the time by the store's clock
	 */
	protected final Instant storeTime() {
		IdempotencyKey probe = new IdempotencyKey(this.tenant, "store clock probe", UUID.randomUUID().toString());
		UUID token = claim(probe, FINGERPRINT_A);
		Instant now = store().find(probe).orElseThrow().createdAt();
		assertThat(store().release(probe, token)).isTrue();
		return now;
	}

	/**
	 * Wait until the store's clock has passed an instant.
	 * @param instant the instant, by the store's clock
	 */
	protected final void awaitStoreTimeAfter(Instant instant) {
		Awaitility.await("the store's clock to pass " + instant)
			.atMost(shortTime().multipliedBy(10).plusSeconds(10))
			.pollInSameThread()
			.pollDelay(Duration.ZERO)
			.pollInterval(max(shortTime().dividedBy(10), Duration.ofMillis(1)))
			.until(() -> storeTime().isAfter(instant));
	}

	/**
	 * Wait until the lease of a record in progress has run out by the store's clock.
	 * @param key the key of the record
	 */
	protected final void awaitLeaseRunOut(IdempotencyKey key) {
		Instant lockedUntil = store().find(key).orElseThrow().lockedUntil();
		assertThat(lockedUntil).as("lease of a record in progress").isNotNull();
		awaitStoreTimeAfter(lockedUntil);
	}

	/**
	 * Wait until a record has expired by the store's clock.
	 * @param key the key of the record
	 */
	protected final void awaitExpiry(IdempotencyKey key) {
		awaitStoreTimeAfter(store().find(key).orElseThrow().expiresAt());
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

	/**
	 * Return a response with a body and the headers {@code Content-Type}, {@code Location} and a
	 * repeated {@code X-Trace}, in that order.
	 * @param status the status
	 * @param body the body
	 * @return the response
	 */
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

	/**
	 * Return the later of two instants, the second of which a store must have set.
	 * @param one an instant
	 * @param other another instant, not {@code null}
	 * @return the later one
	 */
	protected static Instant latest(Instant one, @Nullable Instant other) {
		assertThat(other).isNotNull();
		return other.isAfter(one) ? other : one;
	}

	private static Duration max(Duration one, Duration other) {
		return (one.compareTo(other) >= 0) ? one : other;
	}

	private static String sha256Hex(String text) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required by the Java platform", ex);
		}
	}

}
