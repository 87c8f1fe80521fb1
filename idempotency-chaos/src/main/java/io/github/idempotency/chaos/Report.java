package io.github.idempotency.chaos;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The verdict on a soak.
 *
 * @param run the frame of the soak, or {@code null} if it did not finish
 * @param ops every request sent
 * @param keys every logical payment
 * @param acknowledged the payments answered with a 2xx
 * @param faults the faults injected, by kind
 * @param answers every answer, by what it was
 * @param chargesAskedAgain the gateway charges asked for more than once: payments whose
 * execution ran again after a crash, a lost connection or a lease taken over, and found the
 * charge the first run had made
 * @param calmServerErrors the 5xx answers to requests sent while no fault was active nor had
 * healed in the last 15 s: allowed by the contract, but caused by no injected fault
 * @param throughput acknowledgements per second with and without an active fault
 * @param externalCharges the charges the external gateway made, 0 without one
 * @param asyncRequests the requests sent to the asynchronous endpoint
 * @param acceptedRequests the requests sent to the accepted endpoint, and the reads of their status
 * links
 * @param violations every broken promise
 */
record Report(@Nullable Run run, int ops, int keys, int acknowledged, Map<FaultKind, Integer> faults,
		Map<String, Integer> answers, int chargesAskedAgain, int calmServerErrors, Throughput throughput,
		int externalCharges, int asyncRequests, int acceptedRequests, List<HistoryChecker.Violation> violations) {

	/**
	 * Return how many distinct keys broke promises of a category.
	 * @param category the category
	 * @return the number of keys
	 */
	public long count(HistoryChecker.Category category) {
		return this.violations.stream()
			.filter((violation) -> violation.category() == category)
			.map(HistoryChecker.Violation::key)
			.distinct()
			.count();
	}

	/**
	 * Return whether every promise was kept.
	 * @return whether there is no violation
	 */
	public boolean passed() {
		return this.violations.isEmpty() && this.run != null;
	}

	/**
	 * Return the one-line summary.
	 * @return the summary
	 */
	public String summary() {
		StringBuilder line = new StringBuilder(passed() ? "PASS" : "FAIL");
		if (this.run != null) {
			line.append(" mode=").append(this.run.mode()).append(" seed=").append(this.run.seed());
			line.append(" seconds=").append((this.run.runEnd() - this.run.faultsFrom()) / 1000);
		}
		else {
			line.append(" (the soak did not finish)");
		}
		int faultCount = this.faults.values().stream().mapToInt(Integer::intValue).sum();
		line.append(" ops=").append(this.ops).append(" keys=").append(this.keys);
		line.append(" acknowledged=").append(this.acknowledged);
		line.append(" faults=").append(faultCount);
		if (faultCount > 0) {
			line.append(this.faults.entrySet()
				.stream()
				.map((entry) -> entry.getKey().label() + ":" + entry.getValue())
				.collect(Collectors.joining(",", "(", ")")));
		}
		for (HistoryChecker.Category category : HistoryChecker.Category.values()) {
			if (category != HistoryChecker.Category.EXTERNAL_DUPLICATE) {
				line.append(' ').append(category.label()).append('=').append(count(category));
			}
		}
		line.append(" external-charges=").append(this.externalCharges);
		line.append(" external-duplicates=").append(count(HistoryChecker.Category.EXTERNAL_DUPLICATE));
		line.append(" async=").append(this.asyncRequests);
		line.append(" accepted=").append(this.acceptedRequests);
		line.append(" charges-asked-again=").append(this.chargesAskedAgain);
		line.append(" 5xx-while-calm=").append(this.calmServerErrors);
		line.append(String.format(Locale.ROOT, " throughput: %.1f/s with a fault active (%.0f s), %.1f/s without (%.0f s)",
				this.throughput.duringFaults(), this.throughput.faultSeconds(), this.throughput.calm(),
				this.throughput.calmSeconds()));
		return line.toString();
	}

}
