package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs a script on the primary that holds a record and then, on the same connection, {@code WAIT}s
 * until enough replicas have acknowledged what it wrote. {@code WAIT} cannot run inside a script,
 * and counts the writes of the connection it is sent on, so both go to the primary's connection
 * directly.
 */
final class ReplicaAcknowledgements {

	private final int replicas;

	private final Duration timeout;

	ReplicaAcknowledgements(int replicas, Duration timeout) {
		if (replicas < 1) {
			throw new IllegalArgumentException("Waiting for replicas needs at least one, but was " + replicas);
		}
		this.replicas = replicas;
		this.timeout = timeout;
	}

	int replicas() {
		return this.replicas;
	}

	Duration timeout() {
		return this.timeout;
	}

	/**
	 * Run a script and wait for its writes to reach the replicas.
	 * @param <T> the script's result type
	 * @param connection a connection of the store's connection factory
	 * @param script the script
	 * @param key the record, the script's only key
	 * @param wrote whether a reply means that the script wrote, so that there is something to wait
	 * for
	 * @param args the script's arguments
	 * @return the reply, and how many replicas acknowledged it
	 */
	<T> Acknowledged<T> run(RedisConnection connection, RedisScript<T> script, byte[] key, Predicate<T> wrote,
			byte[]... args) {
		StatefulRedisConnection<byte[], byte[]> primary = LettuceNodes.primaryOf(connection, key);
		RedisAsyncCommands<byte[], byte[]> commands = primary.async();
		ScriptOutputType output = (script.getResultType() == Long.class) ? ScriptOutputType.INTEGER
				: ScriptOutputType.MULTI;
		byte[][] keys = { key };
		T reply;
		try {
			reply = LettuceNodes.await(primary, commands.evalsha(script.getSha1(), output, keys, args), Duration.ZERO);
		}
		catch (RuntimeException ex) {
			if (!LettuceNodes.isNoScript(ex)) {
				throw ex;
			}
			RedisFuture<T> eval = commands.eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8), output,
					keys, args);
			reply = LettuceNodes.await(primary, eval, Duration.ZERO);
		}
		if (!wrote.test(reply)) {
			return new Acknowledged<>(reply, this.replicas);
		}
		long acknowledged = LettuceNodes.await(primary,
				commands.waitForReplication(this.replicas, this.timeout.toMillis()), this.timeout);
		return new Acknowledged<>(reply, acknowledged);
	}

	/**
	 * Describe a shortfall of acknowledgements.
	 * @param what what was written
	 * @param acknowledged how many replicas acknowledged it
	 * @return the description
	 */
	String shortfall(String what, long acknowledged) {
		return what + " was acknowledged by " + acknowledged + " of the " + this.replicas + " Redis replicas that "
				+ "idempotency.redis.wait-replicas requires within " + this.timeout.toMillis() + " ms";
	}

	/**
	 * A script's reply and how many replicas acknowledged its writes.
	 *
	 * @param <T> the reply type
	 * @param reply the reply
	 * @param replicas the replicas that acknowledged it
	 */
	record Acknowledged<T>(T reply, long replicas) {

		boolean enough(ReplicaAcknowledgements required) {
			return this.replicas >= required.replicas;
		}

	}

}
