package io.github.idempotency.redis;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scripts' SHA-1s are read on event loops by the non-blocking store, so they never wait.
 */
class RedisScriptsTests {

	@Test
	void aScriptAnswersItsSha1WhileAnotherThreadHoldsAnyLockOfTheScript() throws Exception {
		RedisScript<?> script = RedisScripts.CLAIM;
		List<Lock> locks = locksOf(script);
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(1);
		Thread holder = new Thread(() -> {
			locks.forEach(Lock::lock);
			held.countDown();
			try {
				done.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				locks.forEach(Lock::unlock);
			}
		});
		holder.start();
		try {
			assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
			CompletableFuture<String> sha1 = CompletableFuture.supplyAsync(script::getSha1);
			// Immediate unless it waits for the held lock, and then never until the lock is let go.
			assertThat(sha1.get(10, TimeUnit.SECONDS)).isEqualTo(sha1Of(script.getScriptAsString()));
		}
		finally {
			done.countDown();
			holder.join();
		}
	}

	private static List<Lock> locksOf(Object object) throws IllegalAccessException {
		List<Lock> locks = new ArrayList<>();
		for (Class<?> type = object.getClass(); type != null; type = type.getSuperclass()) {
			for (Field field : type.getDeclaredFields()) {
				if (Lock.class.isAssignableFrom(field.getType())) {
					field.setAccessible(true);
					locks.add((Lock) field.get(object));
				}
			}
		}
		return locks;
	}

	private static String sha1Of(String text) throws Exception {
		return HexFormat.of()
			.formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
	}

}
