package io.github.idempotency.benchmarks.purge;

import io.github.idempotency.jdbc.BenchmarkJdbc;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.ToDoubleFunction;

import io.github.idempotency.jdbc.IdempotencyPurger;
import io.github.idempotency.jdbc.IdempotencyPurger.PurgeResult;

/**
 * Measures the purge rate and the throughput of concurrent first claims (claim and complete, as a
 * first request does) on PostgreSQL: without a purge, with the throttled purge, and with the same
 * purge unthrottled; each phase starts from the same table of expired records, and the phases run
 * interleaved for a number of rounds, so that the medians are compared.
 *
 * <p>Run it with the command in this module's README.md; arguments are {@code --name=value}: {@code threads}
 * (8), {@code seconds} (20, the longest window of a phase), {@code warm-up-seconds} (3),
 * {@code seed} (300000 expired records), {@code batch-size} (500), {@code pause-ms} (200) and
 * {@code archive} (true: the seeded {@code payments} records are archived as they are purged),
 * {@code rounds} (3) and {@code big-batch-size} (10000: an extra unthrottled phase with large
 * batches; 0 leaves it out).
 */
public final class PurgeBenchmark {

	private PurgeBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		BenchmarkOptions options = BenchmarkOptions.parse(args);
		try (BenchmarkDatabase database = new BenchmarkDatabase(options.threads() + 4)) {
			System.out.printf(Locale.ROOT, "PostgreSQL %s; %d claim threads; %d expired records per phase; "
					+ "window up to %ds after a %ds warm-up; archive %s; %d rounds%n", database.describe(),
					options.threads(), options.seed(), options.window().toSeconds(), options.warmUp().toSeconds(),
					options.archive(), options.rounds());
			Map<String, List<Phase>> phases = new LinkedHashMap<>();
			for (int round = 1; round <= options.rounds(); round++) {
				System.out.printf(Locale.ROOT, "%nRound %d of %d%n", round, options.rounds());
				record(phases, run(database, options, "no purge", 0, null));
				record(phases, run(database, options,
						"purge, batch " + options.batchSize() + ", pause " + options.pause().toMillis() + " ms",
						options.batchSize(), options.pause()));
				record(phases, run(database, options, "purge, batch " + options.batchSize() + ", no pause",
						options.batchSize(), Duration.ZERO));
				if (options.bigBatchSize() > 0) {
					record(phases, run(database, options, "purge, batch " + options.bigBatchSize() + ", no pause",
							options.bigBatchSize(), Duration.ZERO));
				}
			}
			report(phases);
		}
	}

	private static void record(Map<String, List<Phase>> phases, Phase phase) {
		phases.computeIfAbsent(phase.name(), (name) -> new ArrayList<>()).add(phase);
	}

	private static void report(Map<String, List<Phase>> phases) {
		double reference = median(phases.values().iterator().next(), Phase::claimsPerSecond);
		System.out.printf(Locale.ROOT, "%n%-32s %16s %22s %10s %16s%n", "phase (median of rounds)", "claims/s",
				"claims/s min..max", "vs none", "purged/s");
		phases.forEach((name, runs) -> {
			double claims = median(runs, Phase::claimsPerSecond);
			double min = runs.stream().mapToDouble(Phase::claimsPerSecond).min().orElse(0);
			double max = runs.stream().mapToDouble(Phase::claimsPerSecond).max().orElse(0);
			String purged = (runs.get(0).purge() != null)
					? String.format(Locale.ROOT, "%.0f", median(runs, Phase::purgedPerSecond)) : "-";
			System.out.printf(Locale.ROOT, "%-32s %16.0f %22s %9.1f%% %16s%n", name, claims,
					String.format(Locale.ROOT, "%.0f..%.0f", min, max), 100 * (claims / reference - 1), purged);
		});
	}

	private static double median(List<Phase> runs, ToDoubleFunction<Phase> value) {
		double[] values = runs.stream().mapToDouble(value).sorted().toArray();
		int middle = values.length / 2;
		return (values.length % 2 == 1) ? values[middle] : (values[middle - 1] + values[middle]) / 2;
	}

	private static Phase run(BenchmarkDatabase database, BenchmarkOptions options, String name, int batchSize,
			Duration pause) throws Exception {
		database.resetAndSeed(options.seed());
		try (ClaimLoad load = new ClaimLoad(database.store(), options.threads())) {
			TimeUnit.MILLISECONDS.sleep(options.warmUp().toMillis());
			long startCount = load.completed();
			long start = System.nanoTime();
			PurgeResult purge = null;
			if (pause != null) {
				IdempotencyPurger purger = BenchmarkJdbc.purger(database.dataSource(),
						options.archive() ? Set.of("payments") : Set.of(), batchSize, pause);
				purge = purgeFor(purger, options.window());
			}
			else {
				TimeUnit.MILLISECONDS.sleep(options.window().toMillis());
			}
			long elapsed = System.nanoTime() - start;
			long claims = load.completed() - startCount;
			Phase phase = new Phase(name, claims * 1e9 / elapsed, purge);
			System.out.printf(Locale.ROOT, "%s: %.0f claims/s over %.1f s%s, %d failed%n", name,
					phase.claimsPerSecond(), elapsed / 1e9,
					(purge != null) ? String.format(Locale.ROOT, "; purged %d (%d archived) at %.0f/s in %d batches, "
							+ "%d left", purge.deleted(), purge.archived(), phase.purgedPerSecond(), purge.batches(),
							database.expiredLeft()) : "",
					load.failed());
			return phase;
		}
	}

	/**
	 * Run the purge until it is done or the window ends, when it is interrupted between two batches.
	 */
	private static PurgeResult purgeFor(IdempotencyPurger purger, Duration window)
			throws InterruptedException, ExecutionException {
		CompletableFuture<PurgeResult> run = new CompletableFuture<>();
		Thread worker = new Thread(() -> {
			try {
				run.complete(purger.purge());
			}
			catch (RuntimeException ex) {
				run.completeExceptionally(ex);
			}
		}, "purge");
		worker.start();
		try {
			return run.get(window.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			worker.interrupt();
			return run.get();
		}
	}

	/**
	 * What one phase measured.
	 */
	private record Phase(String name, double claimsPerSecond, PurgeResult purge) {

		double purgedPerSecond() {
			return this.purge.deleted() * 1e9 / this.purge.duration().toNanos();
		}

	}

}
