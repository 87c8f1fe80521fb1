package io.github.idempotency.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

import io.github.idempotency.IdempotencyKeyInProgressException;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.store.IdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with the Redis module and no database: on this module's own class path, which
 * has no JDBC, its {@code @Idempotent} methods are guarded by the Redis store, once per key.
 */
class RedisOnlyApplicationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				IdempotencyRedisAutoConfiguration.class, IdempotencyAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=6379")
		.withUserConfiguration(ShipmentsConfiguration.class);

	@Test
	void theModulesClassPathHasNoJdbc() {
		ClassLoader loader = getClass().getClassLoader();
		assertThat(ClassUtils.isPresent("org.springframework.jdbc.core.JdbcTemplate", loader)).isFalse();
		assertThat(ClassUtils.isPresent("io.github.idempotency.jdbc.JdbcIdempotencyStore", loader)).isFalse();
	}

	@Test
	void concurrentCallsWithOneKeyShipOnceAndAllGetTheFirstResult() throws Exception {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(RedisIdempotencyStore.class);
			Shipments shipments = context.getBean(Shipments.class);
			String order = "order-" + UUID.randomUUID();
			int callers = 8;
			ExecutorService pool = Executors.newFixedThreadPool(callers);
			try {
				CountDownLatch start = new CountDownLatch(1);
				List<Future<String>> results = new ArrayList<>();
				for (int i = 0; i < callers; i++) {
					results.add(pool.submit(() -> {
						start.await();
						return shipments.ship(order);
					}));
				}
				start.countDown();
				List<String> answers = new ArrayList<>();
				for (Future<String> result : results) {
					try {
						answers.add(result.get(30, TimeUnit.SECONDS));
					}
					catch (ExecutionException ex) {
						// a duplicate that found the first call in progress is refused, never run
						assertThat(ex.getCause()).isInstanceOf(IdempotencyKeyInProgressException.class);
					}
				}
				assertThat(shipments.effects()).isEqualTo(1);
				assertThat(answers).isNotEmpty().containsOnly("shipment 1 of " + order);
				assertThat(shipments.ship(order)).isEqualTo("shipment 1 of " + order);
				assertThat(shipments.effects()).isEqualTo(1);
			}
			finally {
				pool.shutdownNow();
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class ShipmentsConfiguration {

		@Bean
		Shipments shipments() {
			return new Shipments();
		}

	}

	static class Shipments {

		private final AtomicInteger effects = new AtomicInteger();

		public int effects() {
			return this.effects.get();
		}

		@Idempotent(operation = "ship-order", key = "#order")
		public String ship(String order) {
			return "shipment " + this.effects.incrementAndGet() + " of " + order;
		}

	}

}
