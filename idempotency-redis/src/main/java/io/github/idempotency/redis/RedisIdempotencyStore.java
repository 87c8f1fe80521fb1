package io.github.idempotency.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.store.ReferencingIdempotencyStore;
import io.github.idempotency.redis.ReplicaAcknowledgements.Acknowledged;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;

/**
 * {@link IdempotencyStore} on Redis, standalone or Redis Cluster: each record one hash in one hash
 * slot, each operation one Lua script that decides time with the server's clock, expiry native
 * ({@code PEXPIREAT}). Optionally waits for replicas to acknowledge each claim and completion.
 */
public class RedisIdempotencyStore implements SequencingIdempotencyStore, ReferencingIdempotencyStore {

	/**
	 * The prefix of the record fields that hold references: {@code ref:<name>:<value>}.
	 */
	private static final String REFERENCE_FIELD = "ref:";

	private final RedisTemplate<byte[], byte[]> redis;

	private final RedisRecordKeys keys;

	private final @Nullable ReplicaAcknowledgements acknowledgements;

	/**
	 * Create a store that does not wait for replicas.
	 * @param connectionFactory the connection factory
	 * @param keyPrefix the prefix of the Redis keys of the records, without braces
	 */
	public RedisIdempotencyStore(RedisConnectionFactory connectionFactory, String keyPrefix) {
		this(connectionFactory, keyPrefix, 0, Duration.ZERO);
	}

	/**
	 * Create a store.
	 * @param connectionFactory the connection factory, Lettuce when waiting for replicas
	 * @param keyPrefix the prefix of the Redis keys of the records, without braces
	 * @param waitReplicas how many replicas must acknowledge each claim and completion; zero does
	 * not wait
	 * @param waitTimeout how long to wait for them
	 */
	public RedisIdempotencyStore(RedisConnectionFactory connectionFactory, String keyPrefix, int waitReplicas,
			Duration waitTimeout) {
		this.redis = template(connectionFactory);
		this.keys = new RedisRecordKeys(keyPrefix);
		this.acknowledgements = (waitReplicas > 0) ? new ReplicaAcknowledgements(waitReplicas, waitTimeout) : null;
	}

	@Override
	public ClaimResult claim(ClaimRequest request) {
		IdempotencyKey key = request.key();
		byte[] redisKey = this.keys.of(key);
		String token = FencingTokens.next();
		byte[][] args = claimArguments(request, token);
		List<?> reply = (this.acknowledgements != null) ? claimAcknowledged(key, redisKey, token, args)
				: run(RedisScripts.CLAIM, redisKey, args);
		return claimResult(key, token, reply);
	}

	static byte[][] claimArguments(ClaimRequest request, String token) {
		return new byte[][] { RedisReplies.utf8(request.fingerprint()), RedisReplies.utf8(token),
				RedisReplies.utf8(request.lease().toMillis()), RedisReplies.utf8(request.ttl().toMillis()) };
	}

	static ClaimResult claimResult(IdempotencyKey key, String token, List<?> reply) {
		if (claimed(reply)) {
			return new ClaimResult.Claimed(UUID.fromString(token), RedisReplies.number(reply.get(1)) == 1,
					Math.toIntExact(RedisReplies.number(reply.get(2))));
		}
		IdempotencyRecord record = RedisReplies.record(key, reply, 2);
		if (record == null) {
			throw new IllegalStateException("The claim script answered neither a claim nor a record");
		}
		return new ClaimResult.Existing(record, Duration.ofMillis(RedisReplies.number(reply.get(1))));
	}

	/**
	 * A claim that too few replicas acknowledged is given up again, so that nothing runs on a claim
	 * that a failover could forget; the request is answered as if the store were unavailable.
	 */
	private List<?> claimAcknowledged(IdempotencyKey key, byte[] redisKey, String token, byte[][] args) {
		ReplicaAcknowledgements required = this.acknowledgements;
		Acknowledged<List> claim = runAcknowledged(required, RedisScripts.CLAIM, redisKey,
				RedisIdempotencyStore::claimed, args);
		if (!claim.enough(required)) {
			release(key, UUID.fromString(token), IdempotencyStoreUnavailableException.class.getName());
			throw new IdempotencyStoreUnavailableException(
					new DataAccessResourceFailureException(required.shortfall("A claim", claim.replicas())));
		}
		return claim.reply();
	}

	@Override
	public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
		byte[] redisKey = this.keys.of(key);
		byte[][] args = completeArguments(token, response, ttl);
		ReplicaAcknowledgements required = this.acknowledgements;
		if (required == null) {
			return run(RedisScripts.COMPLETE, redisKey, args) == 1;
		}
		Acknowledged<Long> completion = runAcknowledged(required, RedisScripts.COMPLETE, redisKey,
				(stored) -> stored == 1, args);
		if (!completion.enough(required)) {
			throw new IdempotencyStoreUnavailableException(
					new DataAccessResourceFailureException(required.shortfall("A completion", completion.replicas())));
		}
		return completion.reply() == 1;
	}

	static byte[][] completeArguments(UUID token, StoredResponse response, Duration ttl) {
		return new byte[][] { RedisReplies.utf8(token), RedisReplies.utf8(response.status()),
				RedisHeaders.encode(response.headers()), response.body(), RedisReplies.utf8(ttl.toMillis()) };
	}

	@Override
	public boolean release(IdempotencyKey key, UUID token) {
		return release(key, token, null);
	}

	@Override
	public boolean release(IdempotencyKey key, UUID token, @Nullable String failure) {
		String bounded = FailureTypes.bounded(failure);
		return run(RedisScripts.RELEASE, this.keys.of(key), RedisReplies.utf8(token),
				RedisReplies.utf8((bounded != null) ? bounded : "")) == 1;
	}

	@Override
	public boolean extendLease(IdempotencyKey key, UUID token, Duration lease) {
		return run(RedisScripts.EXTEND, this.keys.of(key), RedisReplies.utf8(token),
				RedisReplies.utf8(lease.toMillis())) == 1;
	}

	@Override
	public Optional<IdempotencyRecord> find(IdempotencyKey key) {
		return Optional.ofNullable(RedisReplies.record(key, run(RedisScripts.FIND, this.keys.of(key)), 1));
	}

	@Override
	public SequenceAdvance advanceSequence(String tenant, String scope, long sequence, Duration ttl) {
		if (sequence < 0) {
			throw new IllegalArgumentException("A sequence number must not be negative, but was " + sequence);
		}
		List<?> reply = run(RedisScripts.ADVANCE_SEQUENCE, this.keys.sequence(tenant, scope),
				RedisReplies.utf8(sequence), RedisReplies.utf8(ttl.toMillis()));
		return new SequenceAdvance(RedisReplies.number(reply.get(0)) == 1,
				Long.parseLong(RedisReplies.text(reply.get(1))));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The reference is a field of the record, which it lives and expires with; a record that is
	 * gone keeps none. Its index, a sorted set of its own (another hash slot), is kept twice the
	 * given TTL from the last attachment, and read only through the records it names.
	 */
	@Override
	public void addReference(IdempotencyKey key, String name, String value, Duration ttl) {
		byte[] record = this.keys.of(key);
		if (run(RedisScripts.ADD_REFERENCE, record, referenceField(name, value)) == 1) {
			run(RedisScripts.INDEX_REFERENCE, this.keys.referenceIndex(name, value), record,
					RedisReplies.utf8(ttl.multipliedBy(2).toMillis()));
		}
	}

	@Override
	public Map<String, List<String>> references(IdempotencyKey key) {
		Map<String, List<String>> references = new TreeMap<>();
		for (Object field : run(RedisScripts.REFERENCES, this.keys.of(key))) {
			String text = RedisReplies.text(field);
			int separator = text.indexOf(':', REFERENCE_FIELD.length());
			references.computeIfAbsent(text.substring(REFERENCE_FIELD.length(), separator), (name) -> new ArrayList<>())
				.add(text.substring(separator + 1));
		}
		references.values().forEach(Collections::sort);
		return references;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Reads the index of the reference, oldest first, and keeps the records that still hold it.
	 */
	@Override
	public List<IdempotencyKey> findByReference(String name, String value, int limit) {
		Set<byte[]> indexed = this.redis.opsForZSet().range(this.keys.referenceIndex(name, value), 0, -1);
		List<IdempotencyKey> found = new ArrayList<>();
		byte[] field = referenceField(name, value);
		for (byte[] record : (indexed != null) ? indexed : Set.<byte[]>of()) {
			IdempotencyKey key = this.keys.identityOf(record);
			if (key != null && Boolean.TRUE.equals(this.redis.opsForHash().hasKey(record, field))) {
				found.add(key);
				if (found.size() == limit) {
					break;
				}
			}
		}
		return found;
	}

	private static byte[] referenceField(String name, String value) {
		return RedisReplies.utf8(REFERENCE_FIELD + name + ":" + value);
	}

	RedisRecordKeys keys() {
		return this.keys;
	}

	private <T> T run(RedisScript<T> script, byte[] redisKey, byte[]... args) {
		T reply = this.redis.execute(script, List.of(redisKey), (Object[]) args);
		if (reply == null) {
			throw new IllegalStateException("A Redis idempotency script answered nothing");
		}
		return reply;
	}

	private <T> Acknowledged<T> runAcknowledged(ReplicaAcknowledgements required, RedisScript<T> script,
			byte[] redisKey, Predicate<T> wrote, byte[]... args) {
		return this.redis.execute(
				(RedisCallback<Acknowledged<T>>) (connection) -> required.run(connection, script, redisKey, wrote, args));
	}

	private static boolean claimed(List<?> reply) {
		return RedisReplies.number(reply.get(0)) == 1;
	}

	static RedisTemplate<byte[], byte[]> template(RedisConnectionFactory connectionFactory) {
		RedisTemplate<byte[], byte[]> template = new RedisTemplate<>();
		template.setConnectionFactory(connectionFactory);
		template.setEnableDefaultSerializer(false);
		template.setKeySerializer(RedisSerializer.byteArray());
		template.setValueSerializer(RedisSerializer.byteArray());
		template.setHashKeySerializer(RedisSerializer.byteArray());
		template.setHashValueSerializer(RedisSerializer.byteArray());
		template.afterPropertiesSet();
		return template;
	}

}
