package io.github.idempotency.chaos;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * <p>
 * Database crashes ({@link FaultKind#DATABASE_CRASH}, {@link FaultKind#MARIADB_CRASH}) run on a schedule of their own, 4 to 8 s
 * apart, besides the others: each makes the load ebb first (a quiet spell, {@link Pace}: for a
 * second and until the crash only {@value #QUIET_WORKERS} workers start new payments), then has
 * the external gateway kill a backend of the database the moment a slow charge arrives, so that
 * the server crashes while that charge (and usually others) is inside the gateway, a few
 * milliseconds after its claim. A database restart ({@link FaultKind#DATABASE_RESTART}) also
 * waits for a charge to arrive, of any length.
 */
final class Nemesis implements Runnable {

	private static final int[] LATENCIES_MS = { 100, 500, 2000 };

	private static final String[] LOSSES = { "0.1", "0.3" };

	static final int QUIET_WORKERS = 4;

	private static final long QUIET_BEFORE_CRASH_MILLIS = 1000;

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

	private final long seed;

	private final @Nullable GatewayControl gateway;

	private final @Nullable Path databaseDirectory;

	private final long crashOnLatencyMillis;

	private final boolean crashes;

	private final @Nullable FaultKind crashKind;

	private final Pace pace;

	/**
	 * Create a nemesis.
	 * @param seed the seed of its schedules
	 * @param kinds the kinds of fault to inject
	 * @param faultScript {@code bench/chaos/fault.sh}
	 * @param instances the number of instances
	 * @param begin when to start, epoch milliseconds
	 * @param end when to stop, epoch milliseconds
	 * @param history where each fault is recorded
	 * @param log where the fault script's output goes
	 * @param gateway the external gateway's control, which tells when a charge arrives, or
	 * {@code null} without one
	 * @param databaseDirectory the database server's data directory (its {@code postmaster.pid}
	 * names the server's process, MariaDB's {@code mariadbd.pid} its own), needed for database
	 * crashes
	 * @param crashOnLatencyMillis the shortest charge a database crash waits for
	 * @param pace the workers' pace, made quiet before each database crash
	 */
	Nemesis(long seed, List<FaultKind> kinds, Path faultScript, int instances, long begin, long end,
			History.Writer history, Path log, @Nullable GatewayControl gateway, @Nullable Path databaseDirectory,
			long crashOnLatencyMillis, Pace pace) {
		this.seed = seed;
		this.random = new Random(seed);
		this.kinds = kinds.stream().filter((kind) -> !kind.isScheduledCrash()).toList();
		this.faultScript = faultScript;
		this.instances = instances;
		this.begin = begin;
		this.end = end;
		this.history = history;
		this.log = log;
		this.gateway = gateway;
		this.databaseDirectory = databaseDirectory;
		this.crashOnLatencyMillis = crashOnLatencyMillis;
		this.crashKind = kinds.stream().filter(FaultKind::isScheduledCrash).findFirst().orElse(null);
		if (this.crashKind != null && (gateway == null || databaseDirectory == null)) {
			throw new IllegalArgumentException("Database crashes need the gateway's control and the database's directory");
		}
		this.crashes = this.crashKind != null;
		this.pace = pace;
	}

	@Override
	public void run() {
		Thread crasher = null;
		if (this.crashes) {
			crasher = new Thread(this::crashes, "nemesis-crashes");
			crasher.start();
		}
		try {
			deck();
		}
		finally {
			if (crasher != null) {
				try {
					crasher.join();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}
	}

	private void deck() {
		if (this.kinds.isEmpty()) {
			return;
		}
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

	/**
	 * Crash the database, 4 to 8 s after it recovered from the last crash, while a slow charge is
	 * inside the gateway, on a schedule of its own drawn from the seed.
	 */
	private void crashes() {
		Random schedule = new Random(this.seed ^ 0x63726173684C4FL);
		try {
			if (!sleepUntil(this.begin + 2000 + schedule.nextInt(3000))) {
				return;
			}
			do {
				long pause = 4000 + schedule.nextInt(4000);
				this.pace.quiet(QUIET_WORKERS);
				try {
					if (sleepUntil(System.currentTimeMillis() + QUIET_BEFORE_CRASH_MILLIS)) {
						crashOnSlowCharge();
					}
				}
				finally {
					this.pace.busy();
				}
				if (!sleepUntil(System.currentTimeMillis() + pause)) {
					return;
				}
			}
			while (true);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (RuntimeException | IOException ex) {
			this.failure = ex;
		}
	}

	/**
	 * Have the gateway kill a client backend of the database the moment a slow charge arrives;
	 * the server then ends every backend and recovers. If no slow charge arrives within 4 s (the
	 * few workers of the quiet spell held up by another fault), the load picks up again and the
	 * gateway waits 6 s more; if none arrives then either, nothing happens.
	 */
	private void crashOnSlowCharge() throws IOException, InterruptedException {
		GatewayControl.Arrival arrival = crashOnSlowCharge(4000);
		if (arrival == null) {
			this.pace.busy();
			arrival = crashOnSlowCharge(6000);
		}
		if (arrival == null || arrival.killedAt() == null) {
			System.out.println("nemesis: no slow charge arrived; no database crash this time");
			return;
		}
		long crashed = arrival.killedAt();
		this.pace.busy();
		fault((this.crashKind == FaultKind.MARIADB_CRASH) ? "mariadb-await" : "pg-await");
		long up = System.currentTimeMillis();
		this.history.fault(new Fault(this.crashKind, 0, crashed, up,
				"process " + arrival.killed() + " killed " + (crashed - arrival.at()) + " ms after a "
						+ arrival.latencyMillis() + " ms charge arrived; accepting connections again after "
						+ (up - crashed) + " ms"));
	}

	private GatewayControl.@Nullable Arrival crashOnSlowCharge(long timeoutMillis)
			throws IOException, InterruptedException {
		List<Long> backends = clientBackends().stream().map(ProcessHandle::pid).toList();
		long wait = Math.min(timeoutMillis, this.end - System.currentTimeMillis());
		if (backends.isEmpty() || wait <= 0) {
			return null;
		}
		return this.gateway.crashOnCall(this.crashOnLatencyMillis, wait, backends);
	}

	/**
	 * Return the backends that serve the instances' connections, in a random order; none while
	 * the server is down (a restart of the other schedule).
	 */
	private List<ProcessHandle> clientBackends() {
		if (this.crashKind == FaultKind.MARIADB_CRASH) {
			return mariadbServer();
		}
		long postmaster;
		try {
			postmaster = Long.parseLong(Files.readAllLines(this.databaseDirectory.resolve("postmaster.pid")).get(0).trim());
		}
		catch (IOException | RuntimeException ex) {
			return List.of();
		}
		List<ProcessHandle> backends = new ArrayList<>(ProcessHandle.of(postmaster)
			.map((process) -> process.children().filter(Nemesis::servesAnInstance).toList())
			.orElse(List.of()));
		Collections.shuffle(backends);
		return backends;
	}

	/**
	 * Return MariaDB's one server process, which serves every connection with a thread; none
	 * while it is down.
	 */
	private List<ProcessHandle> mariadbServer() {
		try {
			long pid = Long.parseLong(Files.readAllLines(this.databaseDirectory.resolve("mariadbd.pid")).get(0).trim());
			return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).stream().toList();
		}
		catch (IOException | RuntimeException ex) {
			return List.of();
		}
	}

	private static boolean servesAnInstance(ProcessHandle process) {
		try {
			String title = new String(Files.readAllBytes(Path.of("/proc", String.valueOf(process.pid()), "cmdline")),
					StandardCharsets.UTF_8);
			return title.startsWith("postgres: postgres chaos ");
		}
		catch (IOException ex) {
			return false;
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
			case DATABASE_RESTART, MARIADB_RESTART -> {
				target = 0;
				GatewayControl.Arrival arrival = (this.gateway != null)
						? this.gateway.awaitCall(0, Math.min(3000, Math.max(1, this.end - System.currentTimeMillis())))
						: null;
				start = System.currentTimeMillis();
				fault((kind == FaultKind.MARIADB_RESTART) ? "mariadb-restart" : "pg-restart");
				detail = (arrival != null) ? "began " + (start - arrival.at()) + " ms after a charge arrived" : "";
			}
			case DATABASE_CRASH, MARIADB_CRASH -> throw new IllegalStateException("Database crashes run on their own schedule");
			case REDIS_RESTART -> {
				target = 0;
				fault("redis-restart");
				detail = "up again after " + (System.currentTimeMillis() - start) + " ms";
			}
			case DROPPED_CONNECTIONS, REDIS_DROPPED_CONNECTIONS, MARIADB_DROPPED_CONNECTIONS -> {
				String action = switch (kind) {
					case REDIS_DROPPED_CONNECTIONS -> "redis-drop-connections";
					case MARIADB_DROPPED_CONNECTIONS -> "mariadb-drop-connections";
					default -> "drop-connections";
				};
				int rounds = 0;
				long until = start + duration;
				do {
					fault(action, target);
					rounds++;
				}
				while (sleepUntil(Math.min(until, System.currentTimeMillis() + 1000)) && System.currentTimeMillis() < until);
				detail = rounds + " rounds";
			}
			case PARTITION_REJECT, PARTITION_DROP, REDIS_PARTITION_REJECT, REDIS_PARTITION_DROP, MARIADB_PARTITION_REJECT,
					MARIADB_PARTITION_DROP -> {
				boolean reject = kind == FaultKind.PARTITION_REJECT || kind == FaultKind.REDIS_PARTITION_REJECT
						|| kind == FaultKind.MARIADB_PARTITION_REJECT;
				fault("partition", target, reject ? "reject" : "drop", link(kind));
				holdThenHeal(start + duration, target);
				detail = (System.currentTimeMillis() - start) + " ms";
			}
			case PACKET_LOSS, REDIS_PACKET_LOSS, MARIADB_PACKET_LOSS -> {
				fault("loss", target, loss, link(kind));
				holdThenHeal(start + duration, target);
				detail = "probability " + loss;
			}
			case LATENCY, REDIS_LATENCY, MARIADB_LATENCY -> {
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
