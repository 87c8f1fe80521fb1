package io.github.idempotency.benchmarks.purge;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;

/**
 * Threads that each claim a new key and complete it, as a first request does, as fast as the
 * database allows, counting the completed requests.
 */
final class ClaimLoad implements AutoCloseable {

	private static final byte[] BODY = "{\"id\":42,\"status\":\"captured\",\"amount\":1250,\"currency\":\"EUR\"}"
		.getBytes(StandardCharsets.UTF_8);

	private static final StoredResponse RESPONSE = new StoredResponse(201,
			Map.of("Content-Type", List.of("application/json"), "Location", List.of("/payments/42")), BODY);

	private final IdempotencyStore store;

	private final List<Thread> threads = new ArrayList<>();

	private final LongAdder completed = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private volatile boolean running = true;

	ClaimLoad(IdempotencyStore store, int threads) {
		this.store = store;
		for (int i = 0; i < threads; i++) {
			Thread thread = new Thread(this::run, "claim-" + i);
			thread.setDaemon(true);
			this.threads.add(thread);
			thread.start();
		}
	}

	long completed() {
		return this.completed.sum();
	}

	long failed() {
		return this.failed.sum();
	}

	private void run() {
		while (this.running) {
			IdempotencyKey key = new IdempotencyKey("bench", "POST /payments", UUID.randomUUID().toString());
			try {
				ClaimResult result = this.store
					.claim(new ClaimRequest(key, "fingerprint", Duration.ofSeconds(30), Duration.ofHours(24)));
				if (result instanceof ClaimResult.Claimed claimed
						&& this.store.complete(key, claimed.token(), RESPONSE, Duration.ofHours(24))) {
					this.completed.increment();
				}
				else {
					this.failed.increment();
				}
			}
			catch (RuntimeException ex) {
				this.failed.increment();
			}
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		for (Thread thread : this.threads) {
			thread.join();
		}
	}

}
