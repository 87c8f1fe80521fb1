package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Function;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.NonBlockingIdempotencyStore;
import io.github.idempotency.store.StoredResponse;

/**
 * The Redis store that reactive entry points call without a thread of their own: the same Lua
 * scripts sent on the connection factory's shared Lettuce connection, their replies awaited as
 * futures; for a factory that shares its native connection and a store that waits for no replicas.
 */
final class NonBlockingRedisIdempotencyStore extends RedisIdempotencyStore implements NonBlockingIdempotencyStore {

	private final LettuceConnectionFactory connectionFactory;

	private volatile @Nullable Shared shared;

	NonBlockingRedisIdempotencyStore(LettuceConnectionFactory connectionFactory, String keyPrefix) {
		super(connectionFactory, keyPrefix);
		this.connectionFactory = connectionFactory;
		// The scripts are read from the jar and hashed, and the tokens' generator seeded, once, here,
		// rather than on the first request's event loop.
		RedisScripts.CLAIM.getSha1();
		FencingTokens.next();
	}

	/**
	 * Return whether a store on the given factory can be called without blocking: one that shares
	 * its native connection, so that no call waits for a pooled one, and whose commands time out on
	 * Lettuce's own timer (its default), so that no call needs a timer of the JDK's, whose lock an
	 * event loop must not wait for.
	 * @param connectionFactory the connection factory
	 * @return whether it can
	 */
	static boolean supports(Object connectionFactory) {
		return connectionFactory instanceof LettuceConnectionFactory lettuce && lettuce.getShareNativeConnection()
				&& lettuce.getClientConfiguration()
					.getClientOptions()
					.map((options) -> options.getTimeoutOptions().isTimeoutCommands())
					.orElse(true);
	}

	@Override
	public CompletionStage<ClaimResult> claimAsync(ClaimRequest request) {
		String token = FencingTokens.next();
		return run(RedisScripts.CLAIM, keys().of(request.key()), RedisIdempotencyStore.claimArguments(request, token))
			.thenApply((reply) -> RedisIdempotencyStore.claimResult(request.key(), token, reply));
	}

	@Override
	public CompletionStage<Boolean> completeAsync(IdempotencyKey key, UUID token, StoredResponse response,
			Duration ttl) {
		return run(RedisScripts.COMPLETE, keys().of(key), RedisIdempotencyStore.completeArguments(token, response, ttl))
			.thenApply((stored) -> stored == 1);
	}

	@Override
	public CompletionStage<Boolean> releaseAsync(IdempotencyKey key, UUID token, @Nullable String failure) {
		String bounded = FailureTypes.bounded(failure);
		return run(RedisScripts.RELEASE, keys().of(key), RedisReplies.utf8(token),
				RedisReplies.utf8((bounded != null) ? bounded : ""))
			.thenApply((released) -> released == 1);
	}

	@Override
	public CompletionStage<Optional<IdempotencyRecord>> findAsync(IdempotencyKey key) {
		return run(RedisScripts.FIND, keys().of(key))
			.thenApply((reply) -> Optional.ofNullable(RedisReplies.record(key, reply, 1)));
	}

	@Override
	public CompletionStage<SequenceAdvance> advanceSequenceAsync(String tenant, String scope, long sequence,
			Duration ttl) {
		if (sequence < 0) {
			return CompletableFuture.failedFuture(
					new IllegalArgumentException("A sequence number must not be negative, but was " + sequence));
		}
		return run(RedisScripts.ADVANCE_SEQUENCE, keys().sequence(tenant, scope), RedisReplies.utf8(sequence),
				RedisReplies.utf8(ttl.toMillis()))
			.thenApply((reply) -> new SequenceAdvance(RedisReplies.number(reply.get(0)) == 1,
					Long.parseLong(RedisReplies.text(reply.get(1)))));
	}

	/**
	 * Run a script by its SHA-1, sending it in full to a server that does not have it yet, as
	 * Spring Data Redis does for the blocking calls; failures are translated as theirs are.
	 */
	private <T> CompletionStage<T> run(RedisScript<T> script, byte[] redisKey, byte[]... args) {
		ScriptOutputType output = (script.getResultType() == Long.class) ? ScriptOutputType.INTEGER
				: ScriptOutputType.MULTI;
		byte[][] keys = { redisKey };
		return connection().thenCompose((connection) -> {
			RedisScriptingAsyncCommands<byte[], byte[]> commands = connection.commands();
			CompletionStage<T> bySha = commands.evalsha(script.getSha1(), output, keys, args);
			return bySha.handle((reply, failure) -> (failure == null) ? CompletableFuture.completedFuture(reply)
					: LettuceNodes.isNoScript(failure) ? commands.<T>eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8),
							output, keys, args) : CompletableFuture.<T>failedFuture(failure))
				.thenCompose(Function.identity());
		}).handle((reply, failure) -> {
			if (failure != null) {
				Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
						? failure.getCause() : failure;
				throw new CompletionException((cause instanceof Exception ex) ? LettuceNodes.translate(ex) : cause);
			}
			if (reply == null) {
				throw new IllegalStateException("A Redis idempotency script answered nothing");
			}
			return reply;
		});
	}

	/**
	 * Return the factory's shared connection: at once once it is open; before that, opened off
	 * the calling thread, as opening it blocks.
	 */
	private CompletionStage<Shared> connection() {
		Shared current = this.shared;
		if (current != null && current.connection().isOpen()) {
			return CompletableFuture.completedFuture(current);
		}
		return CompletableFuture.supplyAsync(this::open, ForkJoinPool.commonPool());
	}

	private Shared open() {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			Object commands = connection.getNativeConnection();
			Shared opened;
			if (commands instanceof RedisAdvancedClusterAsyncCommands<?, ?> cluster) {
				opened = shared(cluster.getStatefulConnection(), cluster);
			}
			else if (commands instanceof RedisAsyncCommands<?, ?> standalone) {
				opened = shared(standalone.getStatefulConnection(), standalone);
			}
			else {
				throw new IllegalStateException("Not a Lettuce connection: " + commands.getClass().getName());
			}
			this.shared = opened;
			return opened;
		}
	}

	@SuppressWarnings("unchecked")
	private static Shared shared(StatefulConnection<?, ?> connection, RedisScriptingAsyncCommands<?, ?> commands) {
		return new Shared((StatefulConnection<byte[], byte[]>) connection,
				(RedisScriptingAsyncCommands<byte[], byte[]>) commands);
	}

	/**
	 * The factory's shared Lettuce connection and its asynchronous commands.
	 */
	private record Shared(StatefulConnection<byte[], byte[]> connection,
			RedisScriptingAsyncCommands<byte[], byte[]> commands) {

	}

}
