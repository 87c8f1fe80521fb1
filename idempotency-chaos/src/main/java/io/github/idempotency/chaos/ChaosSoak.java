package io.github.idempotency.chaos;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs the soak: client workers create payments with retries on every instance while the
 * nemesis injects faults; then, with every fault healed, the unresolved payments are retried
 * until final and every acknowledged payment is sent once more, which must be a replay.
 * Everything is recorded in the history file; {@link ChaosCheck} judges it.
 * <p>
 * Arguments: {@code --instances=URL,URL,... --history=FILE --fault-script=FILE --mode=NAME
 * [--faults=LABEL,...] [--workers=16] [--seconds=60] [--seed=N] [--warm-up-seconds=10]
 * [--drain-seconds=90] [--read-timeout-ms=10000] [--gateway=URL] [--database-data=DIR]
 * [--crash-on-latency-ms=500]}: the nemesis starts after the warm-up and injects faults of the
 * given kinds (by default those of a soak on PostgreSQL alone, {@link FaultKind#POSTGRES}) for
 * the given seconds. {@code --gateway} is the external gateway's URL as the soak reaches it (its
 * control tells the nemesis when a charge arrives) and {@code --database-data} the database server's
 * data directory, both needed for {@code pg-crash} and {@code mariadb-crash}, which waits for a charge that takes at least
 * {@code --crash-on-latency-ms}.
 */
public final class ChaosSoak {

	private ChaosSoak() {
	}

	public static void main(String[] args) throws Exception {
		Options options = new Options(args);
		List<URI> instances = Arrays.stream(options.get("instances").split(",")).map(URI::create).toList();
		Path historyFile = Path.of(options.get("history"));
		Path faultScript = Path.of(options.get("fault-script"));
		String mode = options.get("mode");
		List<FaultKind> faults = options.has("faults") ? FaultKind.fromLabels(options.get("faults")) : FaultKind.POSTGRES;
		int workers = Integer.parseInt(options.get("workers", "16"));
		long seconds = Long.parseLong(options.get("seconds", "60"));
		long seed = Long.parseLong(options.get("seed", String.valueOf(System.nanoTime())));
		long warmUpSeconds = Long.parseLong(options.get("warm-up-seconds", "10"));
		long drainSeconds = Long.parseLong(options.get("drain-seconds", "90"));
		Duration readTimeout = Duration.ofMillis(Long.parseLong(options.get("read-timeout-ms", "10000")));
		GatewayControl gateway = options.has("gateway") ? new GatewayControl(URI.create(options.get("gateway"))) : null;
		Path databaseDirectory = options.has("database-data") ? Path.of(options.get("database-data")) : null;
		long crashOnLatency = Long.parseLong(options.get("crash-on-latency-ms", "500"));
		System.out.printf("chaos soak: mode=%s seed=%d workers=%d seconds=%d instances=%d faults=%s%n", mode, seed,
				workers, seconds, instances.size(),
				faults.stream().map(FaultKind::label).collect(Collectors.joining(",")));

		try (History.Writer history = new History.Writer(historyFile)) {
			SoakClient client = new SoakClient(instances, readTimeout, history);
			long start = System.currentTimeMillis();
			long faultsFrom = start + TimeUnit.SECONDS.toMillis(warmUpSeconds);
			long runEnd = faultsFrom + TimeUnit.SECONDS.toMillis(seconds);
			long drainEnd = runEnd + TimeUnit.SECONDS.toMillis(drainSeconds);
			Pace pace = new Pace();
			Nemesis nemesis = new Nemesis(seed, faults, faultScript, instances.size(), faultsFrom, runEnd, history,
					historyFile.resolveSibling("nemesis.log"), gateway, databaseDirectory, crashOnLatency, pace);
			ScheduledExecutorService hedges = Executors.newScheduledThreadPool(workers);
			Thread nemesisThread = new Thread(nemesis, "nemesis");
			nemesisThread.start();
			List<Worker> all = new ArrayList<>();
			List<Thread> threads = new ArrayList<>();
			String customers = "chaos-" + Long.toString(start, 36);
			for (int i = 1; i <= workers; i++) {
				Worker worker = new Worker(i, client, runEnd, drainEnd, customers, seed, hedges, pace);
				all.add(worker);
				Thread thread = new Thread(worker, "worker-" + i);
				threads.add(thread);
				thread.start();
			}
			nemesisThread.join();
			nemesis.awaitRestarts();
			long faultsOver = System.currentTimeMillis();
			if (nemesis.failure() != null) {
				// the workers finish as usual, so that the history stays whole for the checker
				System.out.println("chaos soak: the nemesis failed; the run will fail");
				nemesis.failure().printStackTrace(System.out);
			}
			for (Thread thread : threads) {
				thread.join();
			}
			hedges.shutdown();
			System.out.printf("chaos soak: faults over after %d s, payments resolved after %d s%n",
					(faultsOver - start) / 1000, (System.currentTimeMillis() - start) / 1000);
			int replays = verify(client, all, workers);
			long end = System.currentTimeMillis();
			history.run(new Run(mode, seed, workers, start, faultsFrom, runEnd, end));
			System.out.printf("chaos soak: %d final replays sent; history in %s%n", replays, historyFile);
			if (nemesis.failure() != null) {
				System.exit(2);
			}
		}
	}

	private static int verify(SoakClient client, List<Worker> workers, int threads) throws Exception {
		List<SoakClient.Call> calls = new ArrayList<>();
		workers.forEach((worker) -> calls.addAll(worker.acknowledged()));
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> sent = new ArrayList<>();
			for (SoakClient.Call call : calls) {
				sent.add(executor.submit(() -> {
					call.phase = "verify";
					client.send(call);
				}));
			}
			for (Future<?> future : sent) {
				future.get();
			}
		}
		finally {
			executor.shutdown();
		}
		return calls.size();
	}

}
