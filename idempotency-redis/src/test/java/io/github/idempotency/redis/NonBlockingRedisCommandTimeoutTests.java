package io.github.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.TimeoutOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The non-blocking Redis store's calls time out on Lettuce's own timer, with no timer of the
 * JDK's (whose lock an event loop must not wait for): a call Redis does not answer fails once the
 * command timeout has passed, and a factory whose commands never time out gets the blocking store.
 */
class NonBlockingRedisCommandTimeoutTests {

	private static final String PREFIX = RedisTestServer.local().uniquePrefix("nonblocking-timeout");

	@AfterAll
	static void cleanUp() {
		RedisTestServer.local().deleteKeys(PREFIX);
	}

	@Test
	void aCallThatRedisDoesNotAnswerFailsOnceTheCommandTimeoutHasPassed() throws Exception {
		LettuceConnectionFactory factory = factory(
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofMillis(300)).build());
		LettuceConnectionFactory admin = TestRedis.standalone();
		try {
			NonBlockingRedisIdempotencyStore store = new NonBlockingRedisIdempotencyStore(factory, PREFIX);
			assertThat(store.claimAsync(request("warm-up")).toCompletableFuture().get(30, TimeUnit.SECONDS))
				.isInstanceOf(ClaimResult.Claimed.class);
			try (RedisConnection connection = admin.getConnection()) {
				// Scripts wait while writes are paused; the pause outlasts the command timeout tenfold.
				connection.execute("CLIENT", bytes("PAUSE"), bytes("3000"), bytes("WRITE"));
				try {
					assertThatExceptionOfType(ExecutionException.class)
						.isThrownBy(() -> store.claimAsync(request("unanswered"))
							.toCompletableFuture()
							.get(30, TimeUnit.SECONDS))
						.havingCause()
						.isInstanceOf(QueryTimeoutException.class);
				}
				finally {
					connection.execute("CLIENT", bytes("UNPAUSE"));
				}
			}
		}
		finally {
			factory.destroy();
			admin.destroy();
		}
	}

	@Test
	void aFactoryWhoseCommandsNeverTimeOutIsNotCalledWithoutBlocking() {
		LettuceClientConfiguration neverTimesOut = LettuceClientConfiguration.builder()
			.clientOptions(ClientOptions.builder()
				.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
				.build())
			.build();
		assertThat(NonBlockingRedisIdempotencyStore.supports(unstarted(neverTimesOut))).isFalse();
		assertThat(NonBlockingRedisIdempotencyStore.supports(unstarted(LettuceClientConfiguration.defaultConfiguration())))
			.isTrue();
	}

	private static LettuceConnectionFactory factory(LettuceClientConfiguration configuration) {
		LettuceConnectionFactory factory = unstarted(configuration);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static LettuceConnectionFactory unstarted(LettuceClientConfiguration configuration) {
		RedisTestServer server = RedisTestServer.local();
		return new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port()),
				configuration);
	}

	private static ClaimRequest request(String name) {
		return new ClaimRequest(new IdempotencyKey("tenant", "timeouts", name), "fingerprint", Duration.ofMinutes(1),
				Duration.ofHours(1));
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
