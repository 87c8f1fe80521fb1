package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.springways.SpringWaysApplication.Gate;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.test.ForwardingIdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A duplicate waiting in the same instance for a request in progress is woken once the result is
 * stored, not before: its next look at the store finds the result.
 */
@Import(WaitingDuplicateWakeTests.SlowCompletionConfiguration.class)
class WaitingDuplicateWakeTests extends SpringWaysTest {

	@Autowired
	Gate gate;

	@Autowired
	SlowCompletion store;

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void waitingDuplicateIsWokenAfterTheResultIsStored() throws Exception {
		String value = unique();
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> first = http().post("/waiting").key(value).json(json(value))
			.sendAsync();
		Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> this.gate.entered() == 1);
		CompletableFuture<HttpResponse<byte[]>> duplicate = http().post("/waiting").key(value).json(json(value))
			.sendAsync();
		Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> this.store.claims(value) >= 2);
		this.gate.open();
		assertThat(first.get().statusCode()).isEqualTo(200);
		HttpResponse<byte[]> replay = duplicate.get();
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.get().body());
		assertThat(this.store.claims(value)).isEqualTo(3);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class SlowCompletionConfiguration {

		@Bean
		static SlowCompletion slowCompletion() {
			return new SlowCompletion();
		}

	}

	/**
	 * Wraps the application's store: counts claims per key, and holds each completion until
	 * another claim of its key arrives (at most a second), so that a duplicate woken too early
	 * would look while the result is not yet stored.
	 */
	static class SlowCompletion implements BeanPostProcessor {

		private final Map<String, AtomicInteger> claims = new ConcurrentHashMap<>();

		int claims(String key) {
			AtomicInteger count = this.claims.get(key);
			return (count != null) ? count.get() : 0;
		}

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			return (bean instanceof IdempotencyStore store) ? new Wrapper(store) : bean;
		}

		private final class Wrapper extends ForwardingIdempotencyStore {

			Wrapper(IdempotencyStore delegate) {
				super(delegate);
			}

			@Override
			public ClaimResult claim(ClaimRequest request) {
				ClaimResult result = this.delegate.claim(request);
				SlowCompletion.this.claims.computeIfAbsent(request.key().key(), (key) -> new AtomicInteger())
					.incrementAndGet();
				return result;
			}

			@Override
			public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
				int before = claims(key.key());
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
				while (claims(key.key()) == before && System.nanoTime() < deadline) {
					Thread.onSpinWait();
				}
				return this.delegate.complete(key, token, response, ttl);
			}

		}

	}

}
