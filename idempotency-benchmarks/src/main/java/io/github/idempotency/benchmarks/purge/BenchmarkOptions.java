package io.github.idempotency.benchmarks.purge;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The settings of one benchmark run, from {@code --name=value} arguments.
 *
 * @param threads the number of claim threads
 * @param window the longest measurement window of one phase
 * @param warmUp how long the claim load runs before a phase is measured
 * @param seed how many expired records each phase starts with
 * @param batchSize the batch size of the purge
 * @param pause the pause between two batches of the throttled purge
 * @param archive whether half the seeded records belong to an archived operation
 * @param rounds how many times every phase runs, interleaved, so that noise shows in the spread
 * @param bigBatchSize the batch size of an extra unthrottled phase with large batches, or 0 for none
 */
record BenchmarkOptions(int threads, Duration window, Duration warmUp, int seed, int batchSize, Duration pause,
		boolean archive, int rounds, int bigBatchSize) {

	static BenchmarkOptions parse(String[] args) {
		Map<String, String> values = new HashMap<>();
		for (String arg : args) {
			if (!arg.startsWith("--") || !arg.contains("=")) {
				throw new IllegalArgumentException("Arguments are --name=value, not '" + arg + "'");
			}
			values.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
		}
		return new BenchmarkOptions(Integer.parseInt(values.getOrDefault("threads", "8")),
				Duration.ofSeconds(Long.parseLong(values.getOrDefault("seconds", "20"))),
				Duration.ofSeconds(Long.parseLong(values.getOrDefault("warm-up-seconds", "3"))),
				Integer.parseInt(values.getOrDefault("seed", "300000")),
				Integer.parseInt(values.getOrDefault("batch-size", "500")),
				Duration.ofMillis(Long.parseLong(values.getOrDefault("pause-ms", "200"))),
				Boolean.parseBoolean(values.getOrDefault("archive", "true")),
				Integer.parseInt(values.getOrDefault("rounds", "3")),
				Integer.parseInt(values.getOrDefault("big-batch-size", "10000")));
	}

}
