package io.github.idempotency.chaos;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.chaos.DatabaseState.IdempotencyRecord;
import io.github.idempotency.chaos.HistoryChecker.Category;
import io.github.idempotency.redis.RedisIdempotencyStore;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RedisRecords} reading what the Redis store itself wrote on the real Redis server, each
 * test under a key prefix of its own.
 */
class RedisRecordsTests {

	private static final RedisTestServer SERVER = RedisTestServer.local();

	private static final String TENANT = "default";

	private static final Duration TTL = Duration.ofHours(1);

	/**
	 * A time long past, in epoch milliseconds: 2000-01-01.
	 */
	private static final String PAST = "946684800000";

	private static LettuceConnectionFactory connectionFactory;

	private final String prefix = SERVER.uniquePrefix("chaosrecords");

	private final RedisIdempotencyStore store = new RedisIdempotencyStore(connectionFactory, this.prefix);

	private final RedisRecords records = new RedisRecords("redis://" + SERVER.host() + ":" + SERVER.port(),
			this.prefix);

	@BeforeAll
	static void connect() {
		connectionFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(SERVER.host(), SERVER.port()));
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	@AfterEach
	void deleteTheRecords() {
		SERVER.deleteKeys(this.prefix);
	}

	@Test
	void aCompletedRecordIsReadWithItsStatusAndTheHashOfItsBody() {
		byte[] body = "{\"id\":7,\"chargeId\":\"ch_7\"}".getBytes(StandardCharsets.UTF_8);
		completed("k1", 201, body);
		assertThat(this.records.load()).containsExactly(
				new IdempotencyRecord("k1", "COMPLETED", null, true, 201, SoakClient.sha256(body)));
	}

	@Test
	void aRecordInProgressUnderItsLeaseIsReadWithTheLeaseRunning() {
		claim("k1", Duration.ofHours(1));
		List<IdempotencyRecord> loaded = this.records.load();
		assertThat(loaded).singleElement().satisfies((record) -> {
			assertThat(record.key()).isEqualTo("k1");
			assertThat(record.status()).isEqualTo("IN_PROGRESS");
			assertThat(record.lockedUntil()).isNotNull();
			assertThat(record.leaseOver()).isFalse();
			assertThat(record.responseStatus()).isNull();
			assertThat(record.bodyHash()).isNull();
		});
	}

	@Test
	void aRecordInProgressPastItsLeaseIsReadWithTheLeaseOver() {
		claim("k1", Duration.ofHours(1));
		runOutLease("k1");
		assertThat(this.records.load())
			.containsExactly(new IdempotencyRecord("k1", "IN_PROGRESS", "2000-01-01T00:00:00Z", true, null, null));
	}

	@Test
	void aReleasedRecordIsReadAsReleased() {
		UUID token = claim("k1", Duration.ofHours(1));
		assertThat(this.store.release(key("k1"), token, "java.net.SocketTimeoutException")).isTrue();
		assertThat(this.records.load()).containsExactly(new IdempotencyRecord("k1", "RELEASED", null, true, null, null));
	}

	@Test
	void onlyTheRecordsOfThePaymentOperationsUnderThePrefixAreRead() {
		byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
		completed("k1", 201, body);
		UUID asynchronous = claim(new IdempotencyKey(TENANT, "create-payment-async", "k4"), Duration.ofHours(1));
		this.store.complete(new IdempotencyKey(TENANT, "create-payment-async", "k4"), asynchronous, response(201, body),
				TTL);
		this.store.addReference(key("k1"), "payment", "7", TTL);
		this.store.advanceSequence(TENANT, "create-payment", 3, TTL);
		UUID token = claim(new IdempotencyKey(TENANT, "refund-payment", "k2"), Duration.ofHours(1));
		this.store.complete(new IdempotencyKey(TENANT, "refund-payment", "k2"), token, response(201, body), TTL);
		RedisIdempotencyStore elsewhere = new RedisIdempotencyStore(connectionFactory, this.prefix + "other:");
		elsewhere.claim(new ClaimRequest(key("k3"), "fingerprint", Duration.ofHours(1), TTL));
		assertThat(this.records.load()).extracting(IdempotencyRecord::key).containsExactlyInAnyOrder("k1", "k4");
	}

	@Test
	void aKeyWithTheCharactersTheStoreEscapesIsReadAsTheClientSentIt() {
		String key = "a:b{c}d%e";
		completed(key, 201, "{}".getBytes(StandardCharsets.UTF_8));
		assertThat(this.records.load()).extracting(IdempotencyRecord::key).containsExactly(key);
	}

	@Test
	void theCheckerPassesAnAcknowledgedPaymentWhoseRecordInRedisHoldsTheAcknowledgedAnswer() {
		byte[] body = "{\"id\":7,\"chargeId\":\"ch_7\"}".getBytes(StandardCharsets.UTF_8);
		completed("k1", 201, body);
		Report report = check(acknowledged("k1", body));
		assertThat(report.violations()).isEmpty();
		assertThat(report.passed()).isTrue();
	}

	@Test
	void theCheckerReportsARecordLeftInProgressInRedisPastItsLeaseAsStuck() {
		byte[] body = "{\"id\":7,\"chargeId\":\"ch_7\"}".getBytes(StandardCharsets.UTF_8);
		claim("k1", Duration.ofHours(1));
		runOutLease("k1");
		Report report = check(acknowledged("k1", body));
		assertThat(report.passed()).isFalse();
		assertThat(report.count(Category.STUCK)).isOne();
		assertThat(report.violations()).filteredOn((violation) -> violation.category() == Category.STUCK)
			.singleElement()
			.satisfies((violation) -> assertThat(violation.detail()).contains("(lease over)"));
	}

	private Report check(Attempt acknowledged) {
		History history = new History(new Run("redis", 42, 1, 0, 1_000, 61_000, 70_000), List.of(acknowledged),
				List.of());
		DatabaseState state = new DatabaseState(List.of(new DatabaseState.Payment("k1", 7, "SUCCEEDED", "ch_7")),
				List.of(new DatabaseState.Charge("k1", "ch_7", "SUCCEEDED", 1)), this.records.load());
		return HistoryChecker.check(history, state);
	}

	private static Attempt acknowledged(String key, byte[] body) {
		return new Attempt(1, key, 1, 1, "run", 2_000, 2_050, 201, false, null, SoakClient.sha256(body), null, "r", 7L,
				"ch_7");
	}

	private void completed(String key, int status, byte[] body) {
		UUID token = claim(key, Duration.ofHours(1));
		assertThat(this.store.complete(key(key), token, response(status, body), TTL)).isTrue();
	}

	private UUID claim(String key, Duration lease) {
		return claim(key(key), lease);
	}

	private UUID claim(IdempotencyKey key, Duration lease) {
		ClaimResult result = this.store.claim(new ClaimRequest(key, "fingerprint", lease, TTL));
		assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
		return ((ClaimResult.Claimed) result).token();
	}

	/**
	 * Move a record's lease into the past behind the store's back, as if it had run out.
	 */
	private void runOutLease(String key) {
		Object changed = SERVER.command("EVAL", """
				if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
				redis.call('HSET', KEYS[1], 'locked_until', ARGV[1])
				return 1""", "1", this.prefix + "{" + TENANT + ":create-payment:" + key + "}", PAST);
		assertThat(changed).isEqualTo(1L);
	}

	private static StoredResponse response(int status, byte[] body) {
		return new StoredResponse(status, Map.of("Content-Type", List.of("application/json")), body);
	}

	private static IdempotencyKey key(String key) {
		return new IdempotencyKey(TENANT, "create-payment", key);
	}

}
