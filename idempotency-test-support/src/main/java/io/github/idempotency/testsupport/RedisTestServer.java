package io.github.idempotency.testsupport;

import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * The standalone Redis server of the machine, on 127.0.0.1:6379 ({@code scripts/ensure-redis.sh}
 * installs and starts it), shared by tests that each keep to a key prefix of their own.
 */
public final class RedisTestServer {

	private static final String HOST = "127.0.0.1";

	private static final int PORT = 6379;

	private static @Nullable RedisTestServer server;

	private RedisTestServer() {
	}

	/**
	 * Return the local server, once it answers.
	 * @return the server
	 * @throws IllegalStateException if no Redis listens on 127.0.0.1:6379
	 */
	public static synchronized RedisTestServer local() {
		if (server == null) {
			try {
				RespConnection.command(HOST, PORT, "PING");
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException("No Redis server answers on " + HOST + ":" + PORT
						+ "; run scripts/ensure-redis.sh, which installs and starts one", ex);
			}
			server = new RedisTestServer();
		}
		return server;
	}

	public String host() {
		return HOST;
	}

	public int port() {
		return PORT;
	}

	/**
	 * Return a key prefix no other test uses.
	 * @param name a short name of the test
	 * @return the prefix, ending with a colon
	 */
	public String uniquePrefix(String name) {
		return "test:" + name + ":" + UUID.randomUUID().toString().substring(0, 8) + ":";
	}

	/**
	 * Send one command.
	 * @param arguments the command and its arguments
	 * @return the reply: a {@link String}, a {@link Long}, a {@link List} of replies, or {@code null}
	 */
	public @Nullable Object command(String... arguments) {
		return RespConnection.command(HOST, PORT, arguments);
	}

	/**
	 * Delete every key of logical database 0 that starts with a prefix.
	 * @param prefix the prefix, without glob characters
	 * @return how many keys were deleted
	 */
	public long deleteKeys(String prefix) {
		long deleted = 0;
		String cursor = "0";
		do {
			List<?> page = (List<?>) command("SCAN", cursor, "MATCH", prefix + "*", "COUNT", "1000");
			cursor = (String) page.get(0);
			for (Object key : (List<?>) page.get(1)) {
				Object count = command("DEL", (String) key);
				deleted += (count instanceof Long n) ? n : 0;
			}
		}
		while (!"0".equals(cursor));
		return deleted;
	}

}
