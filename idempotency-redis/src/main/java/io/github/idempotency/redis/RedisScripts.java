package io.github.idempotency.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.StreamUtils;

/**
 * The Lua scripts of the Redis store, one per operation, each atomic on the server and deciding
 * time with the server's own clock; read once and run by their SHA-1 ({@code EVALSHA}), sent in
 * full only to a server that does not have them yet.
 */
final class RedisScripts {

	@SuppressWarnings("rawtypes")
	static final RedisScript<List> CLAIM = script("claim", List.class);

	static final RedisScript<Long> COMPLETE = script("complete", Long.class);

	static final RedisScript<Long> RELEASE = script("release", Long.class);

	static final RedisScript<Long> EXTEND = script("extend", Long.class);

	@SuppressWarnings("rawtypes")
	static final RedisScript<List> FIND = script("find", List.class);

	@SuppressWarnings("rawtypes")
	static final RedisScript<List> DESCRIBE = script("describe", List.class);

	static final RedisScript<Long> RELEASE_STUCK = script("release-stuck", Long.class);

	@SuppressWarnings("rawtypes")
	static final RedisScript<List> ADVANCE_SEQUENCE = script("advance-sequence", List.class);

	static final RedisScript<Long> ADD_REFERENCE = script("add-reference", Long.class);

	static final RedisScript<Long> INDEX_REFERENCE = script("index-reference", Long.class);

	@SuppressWarnings("rawtypes")
	static final RedisScript<List> REFERENCES = script("references", List.class);

	private RedisScripts() {
	}

	/**
	 * Read a script once, with this class's own class loader: a script read on use would be read
	 * with whatever class loader the calling thread has, which a stopped web application may have
	 * closed.
	 */
	private static <T> RedisScript<T> script(String name, Class<T> resultType) {
		ClassPathResource resource = new ClassPathResource("io/github/idempotency/redis/" + name + ".lua",
				RedisScripts.class.getClassLoader());
		try (InputStream input = resource.getInputStream()) {
			return new LoadedScript<>(StreamUtils.copyToString(input, StandardCharsets.UTF_8), resultType);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the Redis script " + resource.getPath(), ex);
		}
	}

	/**
	 * A script with its SHA-1 computed once. Spring Data Redis's own takes a lock on every read of
	 * its SHA-1, which the non-blocking store makes on an event loop: a concurrent read made that
	 * loop wait.
	 *
	 * @param <T> the result type
	 * @param script the script's text
	 * @param resultType the result type
	 * @param sha1 the SHA-1 of the text, in lower-case hex
	 */
	private record LoadedScript<T>(String script, Class<T> resultType, String sha1) implements RedisScript<T> {

		LoadedScript(String script, Class<T> resultType) {
			this(script, resultType, sha1(script));
		}

		private static String sha1(String script) {
			try {
				return HexFormat.of()
					.formatHex(MessageDigest.getInstance("SHA-1").digest(script.getBytes(StandardCharsets.UTF_8)));
			}
			catch (NoSuchAlgorithmException ex) {
				throw new IllegalStateException("Every Java platform has SHA-1", ex);
			}
		}

		@Override
		public String getSha1() {
			return this.sha1;
		}

		@Override
		public Class<T> getResultType() {
			return this.resultType;
		}

		@Override
		public String getScriptAsString() {
			return this.script;
		}

	}

}
