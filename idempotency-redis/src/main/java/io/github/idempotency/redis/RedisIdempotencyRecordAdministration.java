package io.github.idempotency.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.TreeMap;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.RecordCounts;
import io.github.idempotency.store.RecordMetadata;
import io.github.idempotency.store.ReleaseOutcome;
import io.github.idempotency.store.ReferencedKey;
import io.github.idempotency.store.RepeatedFailure;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.store.RecordStatus;

/**
 * {@link IdempotencyRecordAdministration} over the records of the Redis store. The counts and the
 * list of repeated failures {@code SCAN} every primary and read each record, so they cost a pass
 * over every record and are approximate: records change while they are read.
 */
class RedisIdempotencyRecordAdministration implements IdempotencyRecordAdministration {

	private static final Logger logger = LoggerFactory.getLogger(RedisIdempotencyRecordAdministration.class);

	private static final int SCAN_COUNT = 1000;

	private static final byte[] STATUS = RedisReplies.utf8("status");

	private static final byte[] LOCKED_UNTIL = RedisReplies.utf8("locked_until");

	private static final byte[] EXPIRES_AT = RedisReplies.utf8("expires_at");

	private static final byte[] ATTEMPTS = RedisReplies.utf8("attempts");

	private static final byte[] LAST_FAILURE = RedisReplies.utf8("last_failure");

	private static final byte[] LAST_FAILURE_AT = RedisReplies.utf8("last_failure_at");

	private static final int IN_PROGRESS = 0;

	private static final int COMPLETED = 1;

	private static final int EXPIRED = 2;

	private static final int STUCK = 3;

	private static final int RELEASED = 4;

	private final RedisTemplate<byte[], byte[]> redis;

	private final RedisRecordKeys keys;

	private final RedisIdempotencyStore store;

	/**
	 * Create an instance.
	 * @param connectionFactory the store's connection factory, Lettuce
	 * @param keyPrefix the prefix of the Redis keys of the records
	 */
	public RedisIdempotencyRecordAdministration(RedisConnectionFactory connectionFactory, String keyPrefix) {
		this.redis = RedisIdempotencyStore.template(connectionFactory);
		this.keys = new RedisRecordKeys(keyPrefix);
		this.store = new RedisIdempotencyStore(connectionFactory, keyPrefix);
	}

	@Override
	public List<RecordCounts> countByOperation() {
		Map<String, long[]> counts = new TreeMap<>();
		scan((redisKey, values, now) -> {
			String operation = this.keys.operationOf(redisKey);
			if (operation != null) {
				tally(counts.computeIfAbsent(operation, (name) -> new long[5]), values, now);
			}
		}, STATUS, LOCKED_UNTIL, EXPIRES_AT);
		List<RecordCounts> result = new ArrayList<>(counts.size());
		counts.forEach((operation, count) -> result.add(new RecordCounts(operation, count[IN_PROGRESS],
				count[COMPLETED], count[EXPIRED], count[STUCK], count[RELEASED])));
		return result;
	}

	private static void tally(long[] count, List<KeyValue<byte[], byte[]>> values, long now) {
		RecordStatus status = RecordStatus.valueOf(RedisReplies.text(values.get(0).getValue()));
		Long lockedUntil = number(values.get(1));
		Long expiresAt = number(values.get(2));
		boolean leaseRanOut = status == RecordStatus.IN_PROGRESS && lockedUntil != null && lockedUntil <= now;
		count[switch (status) {
			case IN_PROGRESS -> IN_PROGRESS;
			case COMPLETED -> COMPLETED;
			case RELEASED -> RELEASED;
		}]++;
		if (expired(status, leaseRanOut, expiresAt, now)) {
			count[EXPIRED]++;
		}
		if (leaseRanOut) {
			count[STUCK]++;
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Keeps the top of the list in memory while it reads every record.
	 */
	@Override
	public List<RepeatedFailure> repeatedFailures(@Nullable String operation, int limit) {
		Comparator<RepeatedFailure> mostAttempts = Comparator.comparingInt(RepeatedFailure::attempts)
			.thenComparing(RepeatedFailure::lastFailureAt, Comparator.nullsFirst(Comparator.naturalOrder()));
		PriorityQueue<RepeatedFailure> top = new PriorityQueue<>(mostAttempts);
		scan((redisKey, values, now) -> {
			Long attempts = number(values.get(3));
			IdempotencyKey identity = this.keys.identityOf(redisKey);
			if (attempts == null || attempts <= 1 || identity == null
					|| (operation != null && !operation.equals(identity.operation()))) {
				return;
			}
			RecordStatus status = RecordStatus.valueOf(RedisReplies.text(values.get(0).getValue()));
			Long lockedUntil = number(values.get(1));
			boolean leaseRanOut = status == RecordStatus.IN_PROGRESS && lockedUntil != null && lockedUntil <= now;
			if (expired(status, leaseRanOut, number(values.get(2)), now)) {
				return;
			}
			top.add(new RepeatedFailure(identity.operation(), KeyHashes.shortHash(identity.key()), status,
					Math.toIntExact(attempts),
					values.get(4).hasValue() ? RedisReplies.text(values.get(4).getValue()) : null,
					RedisReplies.instant(number(values.get(5)))));
			if (top.size() > limit) {
				top.poll();
			}
		}, STATUS, LOCKED_UNTIL, EXPIRES_AT, ATTEMPTS, LAST_FAILURE, LAST_FAILURE_AT);
		List<RepeatedFailure> result = new ArrayList<>(top);
		result.sort(mostAttempts.reversed());
		return result;
	}

	private static boolean expired(RecordStatus status, boolean leaseRanOut, @Nullable Long expiresAt, long now) {
		return expiresAt != null && expiresAt <= now && (status != RecordStatus.IN_PROGRESS || leaseRanOut);
	}

	private static @Nullable Long number(KeyValue<byte[], byte[]> value) {
		return value.hasValue() ? RedisReplies.number(value.getValue()) : null;
	}

	/**
	 * Read the given fields of every record of every primary, a page of keys per round trip.
	 */
	private void scan(RecordVisitor visitor, byte[]... fields) {
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			for (StatefulRedisConnection<byte[], byte[]> primary : LettuceNodes.primaries(connection)) {
				scan(primary, visitor, fields);
			}
			return null;
		});
	}

	private void scan(StatefulRedisConnection<byte[], byte[]> primary, RecordVisitor visitor, byte[]... fields) {
		RedisAsyncCommands<byte[], byte[]> commands = primary.async();
		List<byte[]> time = LettuceNodes.await(primary, commands.time(), Duration.ZERO);
		long now = Long.parseLong(RedisReplies.text(time.get(0))) * 1000
				+ Long.parseLong(RedisReplies.text(time.get(1))) / 1000;
		ScanArgs match = ScanArgs.Builder.matches(this.keys.pattern()).limit(SCAN_COUNT);
		ScanCursor cursor = ScanCursor.INITIAL;
		do {
			KeyScanCursor<byte[]> page = LettuceNodes.await(primary, commands.scan(cursor, match), Duration.ZERO);
			List<RedisFuture<List<KeyValue<byte[], byte[]>>>> values = new ArrayList<>(page.getKeys().size());
			for (byte[] key : page.getKeys()) {
				values.add(commands.hmget(key, fields));
			}
			for (int i = 0; i < values.size(); i++) {
				List<KeyValue<byte[], byte[]>> read = LettuceNodes.await(primary, values.get(i), Duration.ZERO);
				if (read.get(0).hasValue()) {
					visitor.visit(page.getKeys().get(i), read, now);
				}
			}
			cursor = page;
		}
		while (!cursor.isFinished());
	}

	@Override
	public Optional<RecordMetadata> describe(IdempotencyKey key) {
		List<?> reply = this.redis.execute(RedisScripts.DESCRIBE, List.of(this.keys.of(key)));
		if (reply == null || reply.get(2) == null) {
			return Optional.empty();
		}
		long now = RedisReplies.number(reply.get(0));
		RecordStatus status = RecordStatus.valueOf(RedisReplies.text(reply.get(2)));
		Long lockedUntil = RedisReplies.number(reply.get(5));
		Long expiresAt = RedisReplies.number(reply.get(8));
		boolean leaseExpired = lockedUntil != null && lockedUntil <= now;
		Long responseStatus = RedisReplies.number(reply.get(9));
		Long attempts = RedisReplies.number(reply.get(10));
		return Optional.of(new RecordMetadata(status, RedisReplies.text(reply.get(3)), RedisReplies.instant(reply.get(6)),
				RedisReplies.instant(reply.get(5)), RedisReplies.instant(reply.get(7)), RedisReplies.instant(reply.get(8)),
				expired(status, leaseExpired, expiresAt, now), leaseExpired,
				(responseStatus != null) ? Math.toIntExact(responseStatus) : null,
				(status == RecordStatus.COMPLETED) ? RedisReplies.number(reply.get(1)) : null,
				(attempts != null) ? Math.toIntExact(attempts) : 1, RedisReplies.text(reply.get(11)),
				RedisReplies.instant(reply.get(12)), this.store.references(key)));
	}

	@Override
	public List<ReferencedKey> findByReference(String name, String value, int limit) {
		List<ReferencedKey> found = new ArrayList<>();
		for (IdempotencyKey key : this.store.findByReference(name, value, limit)) {
			String status = RedisReplies.text(this.redis.opsForHash().get(this.keys.of(key), STATUS));
			found.add(new ReferencedKey(key.tenant(), key.operation(), KeyHashes.shortHash(key.key()),
					(status != null) ? RecordStatus.valueOf(status) : null));
		}
		return found;
	}

	@Override
	public ReleaseOutcome release(IdempotencyKey key, boolean force) {
		Long outcome = this.redis.execute(RedisScripts.RELEASE_STUCK, List.of(this.keys.of(key)),
				RedisReplies.utf8(force ? "1" : "0"));
		ReleaseOutcome released = switch ((outcome != null) ? outcome.intValue() : 0) {
			case 1 -> ReleaseOutcome.RELEASED;
			case 2 -> ReleaseOutcome.COMPLETED;
			case 3 -> ReleaseOutcome.LEASE_ACTIVE;
			case 4 -> ReleaseOutcome.ALREADY_RELEASED;
			default -> ReleaseOutcome.NOT_FOUND;
		};
		if (released == ReleaseOutcome.RELEASED) {
			logger.info("Operator released a key of operation '{}' (key#={}){}", key.operation(),
				IdempotencyKey.shortHash(key.key()), force ? " with force" : "");
		}
		return released;
	}

	@Override
	public long countStuck() {
		return countByOperation().stream().mapToLong(RecordCounts::stuck).sum();
	}

	/**
	 * Sees the fields of one record.
	 */
	@FunctionalInterface
	private interface RecordVisitor {

		void visit(byte[] redisKey, List<KeyValue<byte[], byte[]>> values, long now);

	}

}
