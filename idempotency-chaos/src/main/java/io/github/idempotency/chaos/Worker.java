package io.github.idempotency.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.client.UuidV7;

/**
 * A client worker: creates payments one after the other, each under a new key, and retries each
 * with that key until an answer is final.
 */
final class Worker implements Runnable {

	private final int id;

	private final SoakClient client;

	private final long runEnd;

	private final long drainEnd;

	private final String customerPrefix;

	private final List<SoakClient.Call> acknowledged = new ArrayList<>();

	Worker(int id, SoakClient client, long runEnd, long drainEnd, String customerPrefix) {
		this.id = id;
		this.client = client;
		this.runEnd = runEnd;
		this.drainEnd = drainEnd;
		this.customerPrefix = customerPrefix;
	}

	@Override
	public void run() {
		for (int n = 1; System.currentTimeMillis() < this.runEnd; n++) {
			long amount = ThreadLocalRandom.current().nextLong(100, 100_000);
			String body = "{\"customerId\":\"" + this.customerPrefix + "-w" + this.id + "-" + n + "\",\"amount\":"
					+ amount + ",\"currency\":\"EUR\"}";
			SoakClient.Call call = new SoakClient.Call(this.id, UuidV7.randomUuid().toString(), body, "run");
			Integer status = resolve(call);
			if (status != null && status >= 200 && status < 300) {
				this.acknowledged.add(call);
			}
		}
	}

	private @Nullable Integer resolve(SoakClient.Call call) {
		while (true) {
			long now = System.currentTimeMillis();
			if (now >= this.drainEnd || Thread.currentThread().isInterrupted()) {
				return null;
			}
			if (now >= this.runEnd) {
				call.phase = "drain";
			}
			Integer status = this.client.send(call);
			if (status != null && !SoakClient.RETRYABLE.test(status)) {
				return status;
			}
			try {
				TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextLong(50, 500));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return null;
			}
		}
	}

	List<SoakClient.Call> acknowledged() {
		return this.acknowledged;
	}

}
