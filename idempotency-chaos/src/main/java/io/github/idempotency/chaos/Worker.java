package io.github.idempotency.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.client.UuidV7;

/**
 * A client worker: creates payments one after the other, each under a new key, and retries each
 * with that key until an answer is final.
 * <p>
 * A quarter of the payments go to the asynchronous endpoint ({@code POST /payments/async}) and a
 * quarter to the accepted one ({@code POST /payments/accepted}, answered {@code 202} with a status
 * link that the client follows), half of those for a customer the external gateway is slow with
 * ({@code slow-}, longer than the instances' asynchronous request timeout and than the accepted
 * operation's accept-after); each of those payments is also hedged: if it has
 * no final answer after 100 to 500 ms, the same call (key and body) is sent to an instance from a
 * second thread too, as an impatient client would. Which payments are asynchronous, slow and
 * hedged when is drawn from the seed and the worker's number. In a quiet spell ({@link Pace}) a
 * worker may wait before it starts its next payment.
 */
final class Worker implements Runnable {

	static final int ASYNC_ONE_IN = 4;

	static final int ACCEPTED_ONE_IN = 3;

	private final int id;

	private final SoakClient client;

	private final long runEnd;

	private final long drainEnd;

	private final String customerPrefix;

	private final Random random;

	private final ScheduledExecutorService hedges;

	private final Pace pace;

	private final List<SoakClient.Call> acknowledged = new ArrayList<>();

	Worker(int id, SoakClient client, long runEnd, long drainEnd, String customerPrefix, long seed,
			ScheduledExecutorService hedges, Pace pace) {
		this.id = id;
		this.client = client;
		this.runEnd = runEnd;
		this.drainEnd = drainEnd;
		this.customerPrefix = customerPrefix;
		this.random = new Random(seed * 1_000_003L + id);
		this.hedges = hedges;
		this.pace = pace;
	}

	@Override
	public void run() {
		for (int n = 1; System.currentTimeMillis() < this.runEnd; n++) {
			this.pace.awaitTurn(this.id, this.runEnd);
			if (System.currentTimeMillis() >= this.runEnd) {
				break;
			}
			long amount = ThreadLocalRandom.current().nextLong(100, 100_000);
			boolean async = this.random.nextInt(ASYNC_ONE_IN) == 0;
			boolean accepted = !async && this.random.nextInt(ACCEPTED_ONE_IN) == 0;
			boolean slow = (async || accepted) && this.random.nextBoolean();
			long hedgeAfter = 100 + this.random.nextInt(401);
			String body = "{\"customerId\":\"" + (slow ? ChaosGateway.SLOW_PREFIX : "") + this.customerPrefix + "-w"
					+ this.id + "-" + n + "\",\"amount\":" + amount + ",\"currency\":\"EUR\"}";
			SoakClient.Call call = new SoakClient.Call(this.id, UuidV7.randomUuid().toString(), body, "run", async,
					accepted);
			AtomicBoolean resolved = new AtomicBoolean();
			Future<?> hedge = (async || accepted) ? this.hedges.schedule(() -> {
				if (!resolved.get()) {
					this.client.send(call);
				}
			}, hedgeAfter, TimeUnit.MILLISECONDS) : null;
			Integer status = resolve(call);
			resolved.set(true);
			awaitHedge(hedge);
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
			// A 202: the client's wait for the accepted work ran out; ask again.
			if (status != null && !SoakClient.RETRYABLE.test(status) && status != 202) {
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

	/**
	 * Wait for a hedge that was sent to end, so that a key's history is whole before the next
	 * payment; one not sent yet is cancelled.
	 */
	private static void awaitHedge(@Nullable Future<?> hedge) {
		if (hedge == null || hedge.cancel(false)) {
			return;
		}
		try {
			hedge.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("A hedged call failed", ex.getCause());
		}
	}

	List<SoakClient.Call> acknowledged() {
		return this.acknowledged;
	}

}
