package io.github.idempotency.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * Judges a soak from its history and the database state after it.
 * <p>
 * Per key: at most one payment and one gateway charge; a key acknowledged with a 2xx has exactly
 * one payment, settled with the charge the client was told about; every 2xx answer of a key is
 * byte for byte the same, and so is the stored response; once a 2xx was received, no later
 * answer is a fresh execution; no record is left in progress; every key got a final answer. Per
 * answer, the allowed set of SPEC sections 4 and 5 for a client that always resends the same
 * body with a valid key: {@code 201} (first execution, or replay with
 * {@code Idempotent-Replayed: true}), {@code 409} problem of type {@code in-progress} or
 * {@code lease-lost}, any {@code 5xx} (a transient failure, the key released), or no answer at
 * all (a connection error or timeout). Anything else, such as a {@code 422} for a retry with the
 * same body, is outside the contract.
 * <p>
 * With an external gateway ({@link GatewayLog}), its charges are the ones counted, and for every
 * key of a LEASED operation no two claims are at the gateway at the same time. A claim (its
 * fencing token) is there from the start of its first call of the key to the end of its last
 * (a charge, then its capture); one that begins while another token's is not over is an external
 * duplicate. A claim checks its lease before each call, which passes only while no other claim
 * can take the key over for at least a sixth of the lease, and the soak's leases are well above
 * the longest call: so no takeover that the contract allows can make two claims overlap there,
 * only a claim the store lost, or a key released while its work still ran.
 */
final class HistoryChecker {

	static final String IN_PROGRESS_TYPE = "urn:problem-type:idempotency:in-progress";

	static final String LEASE_LOST_TYPE = "urn:problem-type:idempotency:lease-lost";

	/**
	 * How long after a fault healed a 5xx still counts as caused by it.
	 */
	static final long CALM_AFTER_MILLIS = 15_000;

	/**
	 * How long before a claim's first call at the gateway a fault may have begun and still be
	 * named with an external duplicate: the claim committed a little before its call.
	 */
	private static final long FAULT_LEAD_MILLIS = 1_000;

	private HistoryChecker() {
	}

	/**
	 * Check a history against the database state it left.
	 * @param history the history
	 * @param state the database state after the soak
	 * @return the report
	 */
	public static Report check(History history, DatabaseState state) {
		List<Violation> violations = new ArrayList<>();
		Map<String, List<Attempt>> byKey = new LinkedHashMap<>();
		for (Attempt attempt : history.attempts()) {
			byKey.computeIfAbsent(attempt.key(), (key) -> new ArrayList<>()).add(attempt);
		}
		Map<String, List<DatabaseState.Payment>> payments = group(state.payments(), DatabaseState.Payment::key);
		Map<String, List<DatabaseState.Charge>> charges = group(state.charges(), DatabaseState.Charge::key);
		Map<String, List<DatabaseState.IdempotencyRecord>> records = group(state.records(),
				DatabaseState.IdempotencyRecord::key);
		Map<String, Integer> answers = new TreeMap<>();
		int acknowledged = 0;
		Map<String, Long> acknowledgedAt = new HashMap<>();
		for (Map.Entry<String, List<Attempt>> entry : byKey.entrySet()) {
			String key = entry.getKey();
			List<Attempt> attempts = entry.getValue();
			attempts.sort(Comparator.comparingInt(Attempt::attempt));
			Attempt first = checkAnswers(key, attempts, answers, violations);
			if (first != null) {
				acknowledged++;
				acknowledgedAt.put(key, first.end());
				checkEffects(key, first, payments.getOrDefault(key, List.of()), charges.getOrDefault(key, List.of()),
						records.getOrDefault(key, List.of()), violations);
			}
			if (attempts.stream().noneMatch(Attempt::isFinal)) {
				violations.add(new Violation(Category.UNRESOLVED, key,
						attempts.size() + " attempts, none with a final answer; last: " + describe(attempts.get(attempts.size() - 1))));
			}
			List<DatabaseState.Payment> paid = payments.getOrDefault(key, List.of());
			List<DatabaseState.Charge> charged = charges.getOrDefault(key, List.of());
			if (paid.size() > 1 || charged.size() > 1) {
				violations.add(new Violation(Category.DUPLICATE, key,
						paid.size() + " payments " + paid + ", " + charged.size() + " charges " + charged));
			}
		}
		Set<String> phantoms = new HashSet<>();
		phantoms.addAll(payments.keySet());
		phantoms.addAll(charges.keySet());
		phantoms.addAll(records.keySet());
		phantoms.removeAll(byKey.keySet());
		phantoms.forEach((key) -> violations.add(new Violation(Category.PHANTOM, key,
				"in the database but never sent: " + payments.get(key) + " " + charges.get(key) + " " + records.get(key))));
		for (DatabaseState.IdempotencyRecord record : state.records()) {
			if (!"COMPLETED".equals(record.status())) {
				violations.add(new Violation(Category.STUCK, record.key(), record.status() + ", locked until "
						+ record.lockedUntil() + (record.leaseOver() ? " (lease over)" : " (lease still running)")));
			}
		}
		checkExternalCalls(history, state.gatewayCalls(), violations);
		Map<FaultKind, Integer> faults = new EnumMap<>(FaultKind.class);
		history.faults().forEach((fault) -> faults.merge(fault.kind(), 1, Integer::sum));
		int chargesAskedAgain = (int) state.charges().stream().filter((charge) -> charge.attempts() > 1).count();
		int calmServerErrors = (int) history.attempts()
			.stream()
			.filter((attempt) -> attempt.status() != null && attempt.status() >= 500)
			.filter((attempt) -> history.faults()
				.stream()
				.noneMatch((fault) -> attempt.start() >= fault.start() && attempt.start() <= fault.end() + CALM_AFTER_MILLIS))
			.count();
		int externalCharges = state.gatewayCalls().isEmpty() ? 0 : state.charges().size();
		int asyncRequests = (int) history.attempts().stream().filter(Attempt::async).count();
		int acceptedRequests = (int) history.attempts().stream().filter(Attempt::accepted).count();
		return new Report(history.run(), history.attempts().size(), byKey.size(), acknowledged, faults, answers,
				chargesAskedAgain, calmServerErrors, Throughput.of(history, acknowledgedAt), externalCharges,
				asyncRequests, acceptedRequests, violations);
	}

	/**
	 * Find, for every key of a LEASED operation, two claims (fencing tokens) at the external
	 * gateway at the same time: each from the start of its first call to the end of its last.
	 */
	private static void checkExternalCalls(History history, List<GatewayLog.Call> calls, List<Violation> violations) {
		String mode = (history.run() != null) ? history.run().mode() : null;
		long origin = (history.run() != null) ? history.run().start() : 0;
		Map<String, List<GatewayLog.Call>> byKey = group(calls, GatewayLog.Call::key);
		for (Map.Entry<String, List<GatewayLog.Call>> entry : byKey.entrySet()) {
			Map<String, Claim> claims = new LinkedHashMap<>();
			entry.getValue()
				.stream()
				.filter((call) -> isLeased(mode, call.operation()))
				.forEach((call) -> claims.merge(call.token(), new Claim(call.token(), call.operation(), call.start(),
						call.end(), 1), Claim::and));
			List<Claim> ordered = claims.values().stream().sorted(Comparator.comparingLong(Claim::start)).toList();
			for (int later = 1; later < ordered.size(); later++) {
				Claim second = ordered.get(later);
				for (int earlier = 0; earlier < later; earlier++) {
					Claim first = ordered.get(earlier);
					if (second.start() < first.end()) {
						violations.add(new Violation(Category.EXTERNAL_DUPLICATE, entry.getKey(),
								second.operation() + ": token " + second.describe(origin)
										+ " began at the gateway while token " + first.describe(origin)
										+ " was not over; faults from the first's start to the second's: "
										+ faultsBetween(history, first.start() - FAULT_LEAD_MILLIS, second.start(), origin)));
					}
				}
			}
		}
	}

	/**
	 * One claim's calls of a key at the external gateway: from the start of its first to the end
	 * of its last.
	 */
	private record Claim(String token, String operation, long start, long end, int calls) {

		Claim and(Claim other) {
			return new Claim(this.token, this.operation, Math.min(this.start, other.start),
					Math.max(this.end, other.end), this.calls + other.calls);
		}

		String describe(long origin) {
			return String.format(Locale.ROOT, "%s (%d call%s, +%.3f s to +%.3f s)",
					(this.token.length() > 8) ? this.token.substring(0, 8) : this.token, this.calls,
					(this.calls == 1) ? "" : "s", (this.start - origin) / 1000.0, (this.end - origin) / 1000.0);
		}

	}

	/**
	 * Return whether an operation claims LEASED in a mode: in the atomic mode the synchronous
	 * payments are ATOMIC, whose claim a database crash rolls back with the rest of its
	 * transaction (an effect outside the database is not theirs to protect).
	 */
	static boolean isLeased(@Nullable String mode, String operation) {
		return !"atomic".equals(mode) || "create-payment-async".equals(operation)
				|| "create-payment-accepted".equals(operation);
	}

	/**
	 * Describe the faults active at some time between two instants, or that began in between.
	 */
	private static String faultsBetween(History history, long from, long to, long origin) {
		String faults = history.faults()
			.stream()
			.filter((fault) -> fault.start() <= to && fault.end() >= from)
			.sorted(Comparator.comparingLong(Fault::start))
			.map((fault) -> String.format(Locale.ROOT, "%s (target %d) at +%.3f s, %s", fault.kind().label(),
					fault.target(), (fault.start() - origin) / 1000.0, fault.detail()))
			.collect(Collectors.joining("; "));
		return faults.isEmpty() ? "none" : faults;
	}

	/**
	 * Check every answer of one key and return its first 2xx, if any.
	 */
	private static @Nullable Attempt checkAnswers(String key, List<Attempt> attempts, Map<String, Integer> answers,
			List<Violation> violations) {
		Attempt first = null;
		Set<String> requestHashes = new HashSet<>();
		for (Attempt attempt : attempts) {
			requestHashes.add(attempt.requestHash());
			String answer = classify(attempt);
			answers.merge(answer, 1, Integer::sum);
			if (answer.startsWith("outside")) {
				violations.add(new Violation(Category.OUT_OF_CONTRACT, key, describe(attempt)));
			}
			if (!attempt.isSuccess()) {
				continue;
			}
			if (first == null) {
				first = attempt;
				continue;
			}
			if (!Objects.equals(first.bodyHash(), attempt.bodyHash())) {
				violations.add(new Violation(Category.MISMATCHED_REPLAY, key,
						"attempt " + attempt.attempt() + " answered " + attempt.bodyHash() + ", the first 2xx (attempt "
								+ first.attempt() + ") " + first.bodyHash()));
			}
			if (!attempt.replayed() && attempt.start() > first.end()) {
				violations.add(new Violation(Category.RE_EXECUTED, key, "attempt " + attempt.attempt()
						+ " was answered by a fresh execution after attempt " + first.attempt() + " had been answered"));
			}
		}
		if (requestHashes.size() > 1) {
			throw new IllegalStateException("The history sent different bodies under key " + key);
		}
		return first;
	}

	private static String classify(Attempt attempt) {
		Integer status = attempt.status();
		if (status == null) {
			return "no answer (connection error or timeout)";
		}
		if (status == 201) {
			return attempt.replayed() ? "201 replayed" : "201 executed";
		}
		if (status == 202) {
			return "202 accepted";
		}
		if (attempt.poll() && status == 200) {
			return "200 state of accepted work";
		}
		if (attempt.poll() && status == 404) {
			return "404 status of released work";
		}
		if (status == 409 && (IN_PROGRESS_TYPE.equals(attempt.problemType()) || LEASE_LOST_TYPE.equals(attempt.problemType()))) {
			return "409 " + attempt.problemType().substring(attempt.problemType().lastIndexOf(':') + 1);
		}
		if (status >= 500 && status < 600) {
			return status + " transient";
		}
		return "outside the contract: " + status;
	}

	private static void checkEffects(String key, Attempt acknowledged, List<DatabaseState.Payment> payments,
			List<DatabaseState.Charge> charges, List<DatabaseState.IdempotencyRecord> records,
			List<Violation> violations) {
		if (payments.isEmpty() || charges.isEmpty()) {
			violations.add(new Violation(Category.LOST, key, "acknowledged with " + acknowledged.status() + " (payment "
					+ acknowledged.paymentId() + ") but the database has " + payments.size() + " payments and "
					+ charges.size() + " charges"));
			return;
		}
		DatabaseState.Payment payment = payments.get(0);
		DatabaseState.Charge charge = charges.get(0);
		if (!Objects.equals(acknowledged.paymentId(), payment.id()) || !"SUCCEEDED".equals(payment.status())
				|| !Objects.equals(acknowledged.chargeId(), payment.chargeId())
				|| !Objects.equals(payment.chargeId(), charge.id()) || !"SUCCEEDED".equals(charge.status())) {
			violations.add(new Violation(Category.LOST, key, "acknowledged payment " + acknowledged.paymentId()
					+ " charged as " + acknowledged.chargeId() + ", but the database has " + payment + " and " + charge));
		}
		if (records.size() != 1 || !"COMPLETED".equals(records.get(0).status())
				|| !Objects.equals(records.get(0).responseStatus(), acknowledged.status())
				|| !Objects.equals(records.get(0).bodyHash(), acknowledged.bodyHash())) {
			violations.add(new Violation(Category.MISMATCHED_REPLAY, key,
					"acknowledged " + acknowledged.status() + " " + acknowledged.bodyHash() + ", but the store holds " + records));
		}
	}

	static String describe(Attempt attempt) {
		return "attempt " + attempt.attempt() + " (" + attempt.phase() + ", worker " + attempt.worker() + ", instance "
				+ attempt.instance() + ", at " + attempt.start() + "): "
				+ ((attempt.status() != null)
						? attempt.status() + (attempt.replayed() ? " replayed" : "")
								+ ((attempt.problemType() != null) ? " " + attempt.problemType() : "")
						: attempt.error());
	}

	private static <T> Map<String, List<T>> group(List<T> rows, java.util.function.Function<T, String> key) {
		Map<String, List<T>> grouped = new HashMap<>();
		rows.forEach((row) -> grouped.computeIfAbsent(key.apply(row), (k) -> new ArrayList<>()).add(row));
		return grouped;
	}

	/**
	 * What a violation breaks.
	 */
	public enum Category {

		/**
		 * More than one payment or gateway charge for a key.
		 */
		DUPLICATE("duplicates"),

		/**
		 * A key acknowledged with a 2xx without the payment and charge it was told about.
		 */
		LOST("lost"),

		/**
		 * A 2xx answer, or the stored response, that differs from the key's first 2xx.
		 */
		MISMATCHED_REPLAY("mismatched replays"),

		/**
		 * A fresh execution answered after the key had been answered with a 2xx.
		 */
		RE_EXECUTED("re-executed"),

		/**
		 * An idempotency record left in progress after the soak and its leases were over.
		 */
		STUCK("stuck"),

		/**
		 * An answer outside the allowed set.
		 */
		OUT_OF_CONTRACT("out-of-contract"),

		/**
		 * A key that never got a final answer, though every fault was healed.
		 */
		UNRESOLVED("unresolved"),

		/**
		 * A payment, charge or record under a key that was never sent.
		 */
		PHANTOM("phantoms"),

		/**
		 * Two claims of one key of a LEASED operation at the external gateway at the same time:
		 * one's first call began before the end of the last call of the other.
		 */
		EXTERNAL_DUPLICATE("external-duplicates");

		private final String label;

		Category(String label) {
			this.label = label;
		}

		public String label() {
			return this.label;
		}

	}

	/**
	 * One broken promise.
	 *
	 * @param category what it breaks
	 * @param key the key
	 * @param detail what happened
	 */
	public record Violation(Category category, String key, String detail) {

	}

}
