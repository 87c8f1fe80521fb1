package io.github.idempotency.chaos;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * Injects one fault after another on a schedule drawn from a seeded {@link Random}: which kind
 * (every kind of the mode once per round, in a shuffled order), which instance, how long and how
 * hard, and the pause before the next. The faults are made by {@code bench/chaos/fault.sh}.
 */
final class Nemesis implements Runnable {

	private static final int[] LATENCIES_MS = { 100, 500, 2000 };

	private static final String[] LOSSES = { "0.1", "0.3" };

	private final Random random;

	private final List<FaultKind> kinds;

	private final Path faultScript;

	private final int instances;

	private final long begin;

	private final long end;

	private final History.Writer history;

	private final Path log;

	private final Map<Integer, Thread> restarting = new ConcurrentHashMap<>();

	private volatile @Nullable Throwable failure;

	Nemesis(long seed, List<FaultKind> kinds, Path faultScript, int instances, long begin, long end,
			History.Writer history, Path log) {
		this.random = new Random(seed);
		this.kinds = kinds;
		this.faultScript = faultScript;
		this.instances = instances;
		this.begin = begin;
		this.end = end;
		this.history = history;
		this.log = log;
	}

	@Override
	public void run() {
		List<FaultKind> deck = new ArrayList<>();
		try {
			if (!sleepUntil(this.begin)) {
				return;
			}
			while (true) {
				long pause = 2000 + this.random.nextInt(3000);
				if (deck.isEmpty()) {
					deck.addAll(this.kinds);
					Collections.shuffle(deck, this.random);
				}
				FaultKind kind = deck.remove(0);
				int target = 1 + this.random.nextInt(this.instances);
				long duration = 2000 + this.random.nextInt(6000);
				int latency = LATENCIES_MS[this.random.nextInt(LATENCIES_MS.length)];
				String loss = LOSSES[this.random.nextInt(LOSSES.length)];
				if (!sleepUntil(System.currentTimeMillis() + pause)) {
					return;
				}
				inject(kind, target, duration, latency, loss);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (RuntimeException | IOException ex) {
			this.failure = ex;
		}
	}

	@Nullable Throwable failure() {
		return this.failure;
	}

	private void inject(FaultKind kind, int target, long duration, int latency, String loss)
			throws IOException, InterruptedException {
		long start = System.currentTimeMillis();
		String detail = "";
		switch (kind) {
			case KILL -> {
				target = liveInstance(target);
				if (target == 0) {
					return;
				}
				fault("kill", target);
				fault("start", target);
				awaitRestart(target, start);
				return;
			}
			case PAUSE -> {
				target = liveInstance(target);
				if (target == 0) {
					return;
				}
				fault("pause", target);
				try {
					sleepUntil(start + duration);
				}
				finally {
					fault("resume", target);
				}
				detail = (System.currentTimeMillis() - start) + " ms";
			}
			case DATABASE_RESTART -> {
				target = 0;
				fault("pg-restart");
			}
			case REDIS_RESTART -> {
				target = 0;
				fault("redis-restart");
				detail = "up again after " + (System.currentTimeMillis() - start) + " ms";
			}
			case DROPPED_CONNECTIONS, REDIS_DROPPED_CONNECTIONS -> {
				String action = (kind == FaultKind.DROPPED_CONNECTIONS) ? "drop-connections" : "redis-drop-connections";
				int rounds = 0;
				long until = start + duration;
				do {
					fault(action, target);
					rounds++;
				}
				while (sleepUntil(Math.min(until, System.currentTimeMillis() + 1000)) && System.currentTimeMillis() < until);
				detail = rounds + " rounds";
			}
			case PARTITION_REJECT, PARTITION_DROP, REDIS_PARTITION_REJECT, REDIS_PARTITION_DROP -> {
				boolean reject = kind == FaultKind.PARTITION_REJECT || kind == FaultKind.REDIS_PARTITION_REJECT;
				fault("partition", target, reject ? "reject" : "drop", link(kind));
				holdThenHeal(start + duration, target);
				detail = (System.currentTimeMillis() - start) + " ms";
			}
			case PACKET_LOSS, REDIS_PACKET_LOSS -> {
				fault("loss", target, loss, link(kind));
				holdThenHeal(start + duration, target);
				detail = "probability " + loss;
			}
			case LATENCY, REDIS_LATENCY -> {
				fault("latency", target, String.valueOf(latency), link(kind));
				holdThenHeal(start + duration, target);
				detail = latency + " ms";
			}
		}
		this.history.fault(new Fault(kind, target, start, System.currentTimeMillis(), detail));
	}

	/**
	 * Wait in the background until a killed instance is healthy again, and record the kill then:
	 * the next fault does not wait for the restart, which takes long on a busy machine.
	 */
	private void awaitRestart(int target, long start) {
		Thread thread = new Thread(() -> {
			try {
				fault("await", target);
				this.history.fault(new Fault(FaultKind.KILL, target, start, System.currentTimeMillis(),
						"restarted after " + (System.currentTimeMillis() - start) + " ms"));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (RuntimeException | IOException ex) {
				this.failure = ex;
			}
			finally {
				this.restarting.remove(target);
			}
		}, "restart-" + target);
		this.restarting.put(target, thread);
		thread.start();
	}

	/**
	 * Return the preferred instance, or the next one, that is not restarting; 0 if none.
	 */
	private int liveInstance(int preferred) {
		for (int i = 0; i < this.instances; i++) {
			int candidate = 1 + (preferred - 1 + i) % this.instances;
			if (!this.restarting.containsKey(candidate)) {
				return candidate;
			}
		}
		return 0;
	}

	/**
	 * Wait until every killed instance is healthy again.
	 */
	void awaitRestarts() throws InterruptedException {
		for (Thread thread : List.copyOf(this.restarting.values())) {
			thread.join();
		}
	}

	private static String link(FaultKind kind) {
		String link = kind.link();
		if (link == null) {
			throw new IllegalArgumentException(kind + " disturbs no connection");
		}
		return link;
	}

	private void holdThenHeal(long until, int target) throws IOException, InterruptedException {
		try {
			sleepUntil(until);
		}
		finally {
			fault("heal", target);
		}
	}

	/**
	 * Sleep until a time, or until the end of the run if that comes first.
	 * @return whether the run goes on
	 */
	private boolean sleepUntil(long until) throws InterruptedException {
		long wait = Math.min(until, this.end) - System.currentTimeMillis();
		if (wait > 0) {
			TimeUnit.MILLISECONDS.sleep(wait);
		}
		return System.currentTimeMillis() < this.end;
	}

	private void fault(String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(this.faultScript.toString());
		command.addAll(List.of(arguments));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()))
			.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
		Process process = builder.start();
		if (!process.waitFor(180, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException("Fault " + command + " did not finish in time");
		}
		if (process.exitValue() != 0) {
			throw new IllegalStateException("Fault " + command + " failed with " + process.exitValue() + "; see " + this.log);
		}
	}

	private void fault(String action, int target, String... more) throws IOException, InterruptedException {
		List<String> arguments = new ArrayList<>(List.of(action, String.valueOf(target)));
		arguments.addAll(List.of(more));
		fault(arguments.toArray(String[]::new));
	}

}
