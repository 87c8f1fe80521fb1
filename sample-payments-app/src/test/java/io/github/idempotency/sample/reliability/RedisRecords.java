package io.github.idempotency.sample.reliability;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.github.idempotency.testsupport.RedisTestCluster;
import io.github.idempotency.testsupport.RedisTestServer;

/**
 * The sample's idempotency records in Redis, on the local standalone server or on this JVM's Redis
 * Cluster, under a key prefix of one test class: the arguments that put the sample there, and the
 * records read back over connections of the test's own, with the JDBC store's column names.
 */
final class RedisRecords implements AutoCloseable {

	private final String label;

	private final List<String> connection;

	private final String prefix;

	/**
	 * One function per primary, each sending a command to it.
	 */
	private final List<Function<String[], Object>> primaries;

	private RedisRecords(String label, List<String> connection, String prefix,
			List<Function<String[], Object>> primaries) {
		this.label = label;
		this.connection = connection;
		this.prefix = prefix;
		this.primaries = primaries;
	}

	/**
	 * Records on the local standalone Redis ({@code scripts/ensure-redis.sh}).
	 * @param name a short name of the test, for its key prefix
	 * @return the records
	 */
	static RedisRecords standalone(String name) {
		RedisTestServer server = RedisTestServer.local();
		return new RedisRecords("Redis", List.of("--spring.data.redis.host=" + server.host(),
				"--spring.data.redis.port=" + server.port()), server.uniquePrefix(name), List.of(server::command));
	}

	/**
	 * Records on the Redis Cluster of this JVM (three primaries with a replica each).
	 * @param name a short name of the test, for its key prefix
	 * @return the records
	 */
	static RedisRecords cluster(String name) {
		RedisTestCluster cluster = RedisTestCluster.get();
		List<Function<String[], Object>> primaries = new ArrayList<>();
		cluster.primaryPorts().forEach((port) -> primaries.add((command) -> cluster.command(port, command)));
		return new RedisRecords("Redis Cluster",
				List.of("--spring.data.redis.cluster.nodes=" + String.join(",", cluster.nodes())),
				RedisTestServer.local().uniquePrefix(name), primaries);
	}

	String label() {
		return this.label;
	}

	/**
	 * Return the command line arguments that keep the sample's idempotency records here: its
	 * {@code redis} profile besides any other, this server and this prefix.
	 * @return the arguments
	 */
	List<String> arguments() {
		List<String> arguments = new ArrayList<>(List.of("--spring.profiles.include=redis",
				"--idempotency.redis.key-prefix=" + this.prefix));
		arguments.addAll(this.connection);
		return arguments;
	}

	/**
	 * Return the record of a payment's key as the JDBC store's columns would hold it, or {@code null}:
	 * {@code status}, {@code fencing_token}, {@code response_status} and {@code response_body}.
	 * @param tenant the tenant
	 * @param key the key
	 * @return the record
	 */
	Map<String, Object> recordOf(String tenant, String key) {
		String redisKey = this.prefix + "{" + escape(tenant) + ":" + escape("create-payment") + ":" + escape(key) + "}";
		List<?> fields = (List<?>) onOwner("HGETALL", redisKey);
		if (fields.isEmpty()) {
			return null;
		}
		Map<String, String> hash = new LinkedHashMap<>();
		for (int i = 0; i < fields.size(); i += 2) {
			hash.put((String) fields.get(i), (String) fields.get(i + 1));
		}
		Map<String, Object> record = new LinkedHashMap<>();
		record.put("status", hash.get("status"));
		record.put("fencing_token", hash.get("token"));
		String status = hash.get("response_status");
		record.put("response_status", (status != null) ? Integer.valueOf(status) : null);
		// Bulk strings are read as UTF-8, which gives back the very bytes of a JSON body.
		String body = hash.get("response_body");
		record.put("response_body", (body != null) ? body.getBytes(StandardCharsets.UTF_8) : null);
		return record;
	}

	/**
	 * Return how many records under this prefix are in progress, on every primary.
	 * @return the count
	 */
	long recordsInProgress() {
		long count = 0;
		for (Function<String[], Object> primary : this.primaries) {
			for (String redisKey : keys(primary)) {
				if ("IN_PROGRESS".equals(primary.apply(new String[] { "HGET", redisKey, "status" }))) {
					count++;
				}
			}
		}
		return count;
	}

	/**
	 * Delete every record under this prefix.
	 */
	void clear() {
		for (Function<String[], Object> primary : this.primaries) {
			keys(primary).forEach((redisKey) -> primary.apply(new String[] { "DEL", redisKey }));
		}
	}

	@Override
	public void close() {
		clear();
	}

	private List<String> keys(Function<String[], Object> node) {
		List<String> keys = new ArrayList<>();
		String cursor = "0";
		do {
			List<?> page = (List<?>) node.apply(new String[] { "SCAN", cursor, "MATCH", this.prefix + "*", "COUNT", "1000" });
			cursor = (String) page.get(0);
			((List<?>) page.get(1)).forEach((key) -> keys.add((String) key));
		}
		while (!"0".equals(cursor));
		return keys;
	}

	/**
	 * Send a command of one key to the primary that serves it, the others answering MOVED.
	 */
	private Object onOwner(String... command) {
		IllegalStateException moved = null;
		for (Function<String[], Object> primary : this.primaries) {
			try {
				return primary.apply(command);
			}
			catch (IllegalStateException ex) {
				if (ex.getMessage() == null || !ex.getMessage().contains("MOVED")) {
					throw ex;
				}
				moved = ex;
			}
		}
		throw new IllegalStateException("No primary serves " + command[1], moved);
	}

	/**
	 * Escape a part of the key as the store does (see docs/redis.md, "Redis Cluster").
	 */
	private static String escape(String part) {
		return part.replace("%", "%25").replace("{", "%7B").replace("}", "%7D").replace(":", "%3A");
	}

}
