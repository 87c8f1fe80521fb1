package io.github.idempotency.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.protocol.ConnectionIntent;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;

/**
 * The Lettuce connections to the primaries behind a Spring Data Redis connection, for what must
 * run on one node and one connection (a write and the {@code WAIT} for it) or on every primary
 * (a {@code SCAN}): on Redis Cluster, the connection Lettuce itself writes a slot's commands on.
 */
final class LettuceNodes {

	private static final LettuceExceptionConverter EXCEPTIONS = new LettuceExceptionConverter();

	private LettuceNodes() {
	}

	/**
	 * Return the connection to the primary that serves a key.
	 * @param connection a connection of the store's connection factory
	 * @param key the key
	 * @return the primary's connection
	 */
	static StatefulRedisConnection<byte[], byte[]> primaryOf(RedisConnection connection, byte[] key) {
		Object nativeConnection = connection.getNativeConnection();
		if (nativeConnection instanceof RedisAdvancedClusterAsyncCommands<?, ?> cluster) {
			StatefulRedisClusterConnection<byte[], byte[]> clusterConnection = clusterConnection(cluster);
			RedisClusterNode primary = clusterConnection.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
			if (primary == null) {
				throw new RedisConnectionFailureException(
						"No Redis Cluster primary serves slot " + SlotHash.getSlot(key) + " of an idempotency record");
			}
			return connectionTo(clusterConnection, primary);
		}
		return standalone(nativeConnection);
	}

	/**
	 * Return the connections to every primary: one for a standalone server, one per primary that
	 * serves slots on Redis Cluster.
	 * @param connection a connection of the store's connection factory
	 * @return the primaries' connections
	 */
	static List<StatefulRedisConnection<byte[], byte[]>> primaries(RedisConnection connection) {
		Object nativeConnection = connection.getNativeConnection();
		if (nativeConnection instanceof RedisAdvancedClusterAsyncCommands<?, ?> cluster) {
			StatefulRedisClusterConnection<byte[], byte[]> clusterConnection = clusterConnection(cluster);
			List<StatefulRedisConnection<byte[], byte[]>> primaries = new ArrayList<>();
			for (RedisClusterNode node : clusterConnection.getPartitions()) {
				if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty()) {
					primaries.add(connectionTo(clusterConnection, node));
				}
			}
			return primaries;
		}
		return List.of(standalone(nativeConnection));
	}

	/**
	 * Wait for the result of a command sent on a connection, translating Lettuce's failures as
	 * Spring Data Redis does.
	 * @param <T> the result type
	 * @param connection the connection the command was sent on
	 * @param future the command's result
	 * @param extra how much longer than the connection's command timeout to wait, as for a
	 * command that blocks on the server
	 * @return the result
	 */
	static <T> T await(StatefulRedisConnection<byte[], byte[]> connection, RedisFuture<T> future, Duration extra) {
		try {
			return LettuceFutures.awaitOrCancel(future,
					connection.getTimeout().plus(extra).toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (RuntimeException ex) {
			throw translate(ex);
		}
	}

	static DataAccessException translate(Exception ex) {
		DataAccessException translated = EXCEPTIONS.translate(ex);
		return (translated != null) ? translated : new RedisSystemException(ex.getMessage(), ex);
	}

	private static StatefulRedisConnection<byte[], byte[]> connectionTo(
			StatefulRedisClusterConnection<byte[], byte[]> cluster, RedisClusterNode node) {
		RedisURI uri = node.getUri();
		return cluster.getConnection(uri.getHost(), uri.getPort(), ConnectionIntent.WRITE);
	}

	@SuppressWarnings("unchecked")
	private static StatefulRedisClusterConnection<byte[], byte[]> clusterConnection(
			RedisAdvancedClusterAsyncCommands<?, ?> cluster) {
		return (StatefulRedisClusterConnection<byte[], byte[]>) cluster.getStatefulConnection();
	}

	@SuppressWarnings("unchecked")
	private static StatefulRedisConnection<byte[], byte[]> standalone(Object nativeConnection) {
		if (nativeConnection instanceof RedisAsyncCommands<?, ?> standalone) {
			return (StatefulRedisConnection<byte[], byte[]>) standalone.getStatefulConnection();
		}
		throw new IllegalStateException("The Redis idempotency store needs a Lettuce connection factory for "
				+ "idempotency.redis.wait-replicas and the record counts, but the connection is "
				+ nativeConnection.getClass().getName());
	}

	/**
	 * Return whether a failure, or one of its causes, is Redis's {@code NOSCRIPT}: the script is not
	 * in the server's cache yet, and must be sent whole.
	 * @param failure the failure
	 * @return whether it is
	 */
	static boolean isNoScript(Throwable failure) {
		for (Throwable t = failure; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			if (t instanceof RedisNoScriptException) {
				return true;
			}
		}
		return false;
	}

}
