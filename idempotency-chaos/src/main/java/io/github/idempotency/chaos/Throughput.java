package io.github.idempotency.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Payments acknowledged per second while a fault was active and while none was, over the part
 * of the soak in which faults were injected (after the warm-up).
 *
 * @param faultSeconds how long some fault was active
 * @param calmSeconds how long none was
 * @param duringFaults acknowledgements per second while a fault was active
 * @param calm acknowledgements per second while none was
 */
record Throughput(double faultSeconds, double calmSeconds, double duringFaults, double calm) {

	static Throughput of(History history, Map<String, Long> acknowledgedAt) {
		Run run = history.run();
		if (run == null) {
			return new Throughput(0, 0, 0, 0);
		}
		List<long[]> windows = new ArrayList<>();
		history.faults()
			.stream()
			.sorted(Comparator.comparingLong(Fault::start))
			.forEach((fault) -> {
				long start = Math.max(fault.start(), run.faultsFrom());
				long end = Math.min(fault.end(), run.runEnd());
				if (end <= start) {
					return;
				}
				long[] last = windows.isEmpty() ? null : windows.get(windows.size() - 1);
				if (last != null && start <= last[1]) {
					last[1] = Math.max(last[1], end);
				}
				else {
					windows.add(new long[] { start, end });
				}
			});
		long faultMillis = windows.stream().mapToLong((window) -> window[1] - window[0]).sum();
		long calmMillis = (run.runEnd() - run.faultsFrom()) - faultMillis;
		long inFaults = 0;
		long inCalm = 0;
		for (long at : acknowledgedAt.values()) {
			if (at < run.faultsFrom() || at > run.runEnd()) {
				continue;
			}
			if (windows.stream().anyMatch((window) -> at >= window[0] && at < window[1])) {
				inFaults++;
			}
			else {
				inCalm++;
			}
		}
		return new Throughput(faultMillis / 1000.0, calmMillis / 1000.0, rate(inFaults, faultMillis),
				rate(inCalm, calmMillis));
	}

	private static double rate(long count, long millis) {
		return (millis <= 0) ? 0 : count * 1000.0 / millis;
	}

}
