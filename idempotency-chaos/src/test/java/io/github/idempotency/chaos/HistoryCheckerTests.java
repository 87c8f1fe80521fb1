package io.github.idempotency.chaos;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.idempotency.chaos.DatabaseState.Charge;
import io.github.idempotency.chaos.DatabaseState.IdempotencyRecord;
import io.github.idempotency.chaos.DatabaseState.Payment;
import io.github.idempotency.chaos.HistoryChecker.Category;
import io.github.idempotency.chaos.HistoryChecker.Violation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker against small synthetic histories and database states, each with one broken
 * promise, and a clean one.
 */
class HistoryCheckerTests {

	private static final String KEY = "01a20c65-0000-7000-8000-000000000001";

	private static final String OTHER_KEY = "01a20c65-0000-7000-8000-000000000002";

	private static final String BODY = "b0d1";

	private static final String OTHER_BODY = "0the4";

	private final Run run = new Run("leased", 42, 2, 0, 1_000, 61_000, 70_000);

	private final List<Attempt> attempts = new ArrayList<>();

	private final List<Fault> faults = new ArrayList<>();

	private final List<Payment> payments = new ArrayList<>();

	private final List<Charge> charges = new ArrayList<>();

	private final List<IdempotencyRecord> records = new ArrayList<>();

	private final List<GatewayLog.Call> calls = new ArrayList<>();

	@Test
	void aCleanHistoryWithRetriesThroughFaultsPasses() {
		cleanPayment(KEY, 7, "ch_7");
		cleanPayment(OTHER_KEY, 8, "ch_8");
		Report report = check();
		assertThat(report.violations()).isEmpty();
		assertThat(report.passed()).isTrue();
		assertThat(report.acknowledged()).isEqualTo(2);
		assertThat(report.ops()).isEqualTo(10);
		assertThat(report.summary()).startsWith("PASS mode=leased seed=42 seconds=60 ops=10 keys=2 acknowledged=2 faults=1(kill:1)")
			.contains(" duplicates=0 lost=0 mismatched replays=0 re-executed=0 stuck=0 out-of-contract=0 unresolved=0 phantoms=0"
					+ " external-charges=0 external-duplicates=0 async=0 ");
	}

	@Test
	void anAcceptedPaymentFollowedThroughItsStatusLinkToItsStoredResponsePasses() {
		accepted(KEY, 1, 202, false);
		accepted(KEY, 2, 200, true);
		accepted(KEY, 3, 404, true);
		accepted(KEY, 4, 202, false);
		this.attempts.add(new Attempt(1, KEY, 5, 2, "run", 50_000, 50_005, 201, true, null, BODY, null, "r", 7L,
				"ch_7", false, true, true));
		effects(KEY, 7, "ch_7", BODY);
		Report report = check();
		assertThat(report.violations()).isEmpty();
		assertThat(report.acknowledged()).isEqualTo(1);
		assertThat(report.summary()).contains(" accepted=5 ");
	}

	@Test
	void anAcceptedPaymentWhoseStoredResponseWasNeverReadIsUnresolved() {
		accepted(KEY, 1, 202, false);
		accepted(KEY, 2, 200, true);
		effects(KEY, 7, "ch_7", BODY);
		assertThat(check().violations()).extracting(HistoryChecker.Violation::category)
			.contains(Category.UNRESOLVED);
	}

	@Test
	void aSecondPaymentForOneKeyIsADuplicate() {
		cleanPayment(KEY, 7, "ch_7");
		this.payments.add(new Payment(KEY, 9, "SUCCEEDED", "ch_7"));
		assertOnlyViolation(Category.DUPLICATE, KEY);
	}

	@Test
	void aSecondGatewayChargeForOneKeyIsADuplicate() {
		cleanPayment(KEY, 7, "ch_7");
		this.charges.add(new Charge(KEY, "ch_9", "SUCCEEDED", 1));
		assertOnlyViolation(Category.DUPLICATE, KEY);
	}

	@Test
	void anAcknowledgedPaymentMissingFromTheDatabaseIsLost() {
		cleanPayment(KEY, 7, "ch_7");
		this.payments.clear();
		assertOnlyViolation(Category.LOST, KEY);
	}

	@Test
	void anAcknowledgedPaymentThatIsNotTheOneInTheDatabaseIsLost() {
		cleanPayment(KEY, 7, "ch_7");
		this.payments.set(0, new Payment(KEY, 8, "SUCCEEDED", "ch_7"));
		assertOnlyViolation(Category.LOST, KEY);
	}

	@Test
	void anAcknowledgedPaymentLeftPendingIsLost() {
		cleanPayment(KEY, 7, "ch_7");
		this.payments.set(0, new Payment(KEY, 7, "PENDING", null));
		assertOnlyViolation(Category.LOST, KEY);
	}

	@Test
	void aReplayWithAnotherBodyIsAMismatchedReplay() {
		answered(KEY, 1, 201, false, BODY, 7, "ch_7");
		answered(KEY, 2, 201, true, OTHER_BODY, 7, "ch_7");
		effects(KEY, 7, "ch_7", BODY);
		assertOnlyViolation(Category.MISMATCHED_REPLAY, KEY);
	}

	@Test
	void aStoredResponseOtherThanTheAcknowledgedOneIsAMismatchedReplay() {
		answered(KEY, 1, 201, false, BODY, 7, "ch_7");
		effects(KEY, 7, "ch_7", OTHER_BODY);
		assertOnlyViolation(Category.MISMATCHED_REPLAY, KEY);
	}

	@Test
	void aFreshExecutionAfterAnAcknowledgementIsReExecuted() {
		answered(KEY, 1, 201, false, BODY, 7, "ch_7");
		answered(KEY, 2, 201, false, BODY, 7, "ch_7");
		effects(KEY, 7, "ch_7", BODY);
		assertOnlyViolation(Category.RE_EXECUTED, KEY);
	}

	@Test
	void aRecordLeftInProgressIsStuck() {
		cleanPayment(KEY, 7, "ch_7");
		this.records.add(new IdempotencyRecord(OTHER_KEY, "IN_PROGRESS", "2026-11-24 07:00:00+00", true, null, null));
		answered(OTHER_KEY, 1, 503, false, "p", null, null);
		answered(OTHER_KEY, 2, 201, false, OTHER_BODY, 8, "ch_8");
		this.payments.add(new Payment(OTHER_KEY, 8, "SUCCEEDED", "ch_8"));
		this.charges.add(new Charge(OTHER_KEY, "ch_8", "SUCCEEDED", 1));
		Report report = check();
		assertThat(report.violations()).extracting(Violation::category)
			.containsExactlyInAnyOrder(Category.STUCK, Category.MISMATCHED_REPLAY);
		assertThat(report.count(Category.STUCK)).isOne();
		assertThat(report.violations()).allMatch((violation) -> violation.key().equals(OTHER_KEY));
	}

	@Test
	void aMismatchAnswerToTheSameBodyIsOutsideTheContract() {
		answered(KEY, 1, 201, false, BODY, 7, "ch_7");
		problem(KEY, 2, 422, "urn:problem-type:idempotency:key-reused");
		effects(KEY, 7, "ch_7", BODY);
		assertOnlyViolation(Category.OUT_OF_CONTRACT, KEY);
	}

	@Test
	void aConflictThatIsNotAboutAKeyInProgressIsOutsideTheContract() {
		problem(KEY, 1, 409, "urn:problem-type:idempotency:out-of-order");
		answered(KEY, 2, 201, false, BODY, 7, "ch_7");
		effects(KEY, 7, "ch_7", BODY);
		assertOnlyViolation(Category.OUT_OF_CONTRACT, KEY);
	}

	@Test
	void aKeyThatNeverGotAFinalAnswerIsUnresolved() {
		problem(KEY, 1, 409, HistoryChecker.IN_PROGRESS_TYPE);
		failed(KEY, 2);
		assertOnlyViolation(Category.UNRESOLVED, KEY);
	}

	@Test
	void aPaymentUnderAKeyNeverSentIsAPhantom() {
		cleanPayment(KEY, 7, "ch_7");
		this.payments.add(new Payment(OTHER_KEY, 8, "PENDING", null));
		assertOnlyViolation(Category.PHANTOM, OTHER_KEY);
	}

	@Test
	void violationsOfEveryKindAreCountedAndListedTogether() {
		cleanPayment(KEY, 7, "ch_7");
		this.payments.add(new Payment(KEY, 9, "SUCCEEDED", "ch_7"));
		answered(OTHER_KEY, 1, 201, false, BODY, 8, "ch_8");
		answered(OTHER_KEY, 2, 201, true, OTHER_BODY, 8, "ch_8");
		Report report = check();
		assertThat(report.passed()).isFalse();
		assertThat(report.summary()).startsWith("FAIL ")
			.contains(" duplicates=1 lost=1 mismatched replays=1 ");
		assertThat(report.violations()).extracting(Violation::key).contains(KEY, OTHER_KEY);
	}

	@Test
	void twoClaimsOfOneKeyInsideTheExternalGatewayAtOnceAreAnExternalDuplicate() {
		this.faults.add(new Fault(FaultKind.KILL, 2, 40_000, 45_000, "restarted after 5000 ms"));
		cleanPayment(KEY, 7, "ch_7");
		this.calls.add(call(KEY, "create-payment", "token-a", 40_000, 40_800, "ch_7", true));
		this.calls.add(call(KEY, "create-payment", "token-b", 40_500, 40_700, "ch_7", false));
		Report report = checkWithGateway();
		assertThat(report.violations()).singleElement().satisfies((violation) -> {
			assertThat(violation.category()).isEqualTo(Category.EXTERNAL_DUPLICATE);
			assertThat(violation.key()).isEqualTo(KEY);
			assertThat(violation.detail()).contains("token-b", "token-a",
					"faults from the first's start to the second's: kill (target 2) at +40.000 s");
		});
		assertThat(report.summary()).startsWith("FAIL ")
			.contains(" phantoms=0 external-charges=1 external-duplicates=1 async=0 ");
	}

	@Test
	void aClaimThatBeginsBetweenTheChargeAndTheCaptureOfAnotherIsAnExternalDuplicate() {
		cleanPayment(KEY, 7, "ch_7");
		this.calls.add(call(KEY, "create-payment-async", "token-a", 40_000, 40_800, "ch_7", true));
		this.calls.add(capture(KEY, "create-payment-async", "token-a", 43_000, 43_100, "ch_7"));
		this.calls.add(call(KEY, "create-payment-async", "token-b", 42_000, 42_300, "ch_7", false));
		this.calls.add(capture(KEY, "create-payment-async", "token-b", 42_300, 42_400, "ch_7"));
		Report report = checkWithGateway();
		assertThat(report.violations()).singleElement().satisfies((violation) -> {
			assertThat(violation.category()).isEqualTo(Category.EXTERNAL_DUPLICATE);
			assertThat(violation.detail()).contains("token-b (2 calls, +42.000 s to +42.400 s)",
					"token-a (2 calls, +40.000 s to +43.100 s)");
		});
		assertThat(report.chargesAskedAgain()).isOne();
	}

	@Test
	void callsOfTwoClaimsOfOneKeyOneAfterTheOtherAreNoExternalDuplicate() {
		cleanPayment(KEY, 7, "ch_7");
		this.calls.add(call(KEY, "create-payment", "token-a", 40_000, 40_800, "ch_7", true));
		this.calls.add(call(KEY, "create-payment", "token-b", 40_800, 41_000, "ch_7", false));
		this.calls.add(capture(KEY, "create-payment", "token-b", 41_000, 41_100, "ch_7"));
		Report report = checkWithGateway();
		assertThat(report.violations()).isEmpty();
		assertThat(report.summary()).startsWith("PASS ").contains(" external-charges=1 external-duplicates=0 ");
		assertThat(report.chargesAskedAgain()).isOne();
	}

	@Test
	void overlappingCallsOfAnAtomicOperationAreNoExternalDuplicateButThoseOfTheAsynchronousOneAre() {
		Run atomic = new Run("atomic", 42, 2, 0, 1_000, 61_000, 70_000);
		cleanPayment(KEY, 7, "ch_7");
		cleanPayment(OTHER_KEY, 8, "ch_8");
		this.calls.add(call(KEY, "create-payment", "token-a", 40_000, 40_800, "ch_7", true));
		this.calls.add(call(KEY, "create-payment", "token-b", 40_500, 40_700, "ch_7", false));
		this.calls.add(call(OTHER_KEY, "create-payment-async", "token-c", 40_000, 40_800, "ch_8", true));
		this.calls.add(call(OTHER_KEY, "create-payment-async", "token-d", 40_500, 40_700, "ch_8", false));
		Report report = HistoryChecker.check(new History(atomic, this.attempts, this.faults),
				new DatabaseState(this.payments, this.charges, this.records, this.calls));
		assertThat(report.violations()).singleElement().satisfies((violation) -> {
			assertThat(violation.category()).isEqualTo(Category.EXTERNAL_DUPLICATE);
			assertThat(violation.key()).isEqualTo(OTHER_KEY);
		});
	}

	@Test
	void anAcknowledgedPaymentWithoutAChargeAtTheExternalGatewayIsLost() {
		cleanPayment(KEY, 7, "ch_7");
		this.charges.clear();
		this.calls.add(call(OTHER_KEY, "create-payment", "token-a", 40_000, 40_800, "ch_8", true));
		this.charges.add(new Charge(OTHER_KEY, "ch_8", "SUCCEEDED", 1));
		Report report = checkWithGateway();
		assertThat(report.violations()).extracting(Violation::category)
			.containsExactlyInAnyOrder(Category.LOST, Category.PHANTOM);
		assertThat(report.violations()).filteredOn((violation) -> violation.category() == Category.LOST)
			.singleElement()
			.extracting(Violation::key)
			.isEqualTo(KEY);
	}

	@Test
	void requestsToTheAsynchronousEndpointAreCounted() {
		cleanPayment(KEY, 7, "ch_7");
		this.attempts.add(new Attempt(1, OTHER_KEY, 1, 1, "run", 30_000, 30_300, 503, false, "about:blank", "problem",
				null, "r", null, null, true));
		this.attempts.add(new Attempt(1, OTHER_KEY, 2, 2, "run", 30_400, 30_900, 201, false, null, BODY, null, "r", 8L,
				"ch_8", true));
		effects(OTHER_KEY, 8, "ch_8", BODY);
		Report report = check();
		assertThat(report.violations()).isEmpty();
		assertThat(report.asyncRequests()).isEqualTo(2);
		assertThat(report.summary()).contains(" external-charges=0 external-duplicates=0 async=2 ");
	}

	@Test
	void aSoakThatDidNotFinishFails() {
		cleanPayment(KEY, 7, "ch_7");
		Report report = HistoryChecker.check(new History(null, this.attempts, this.faults),
				new DatabaseState(this.payments, this.charges, this.records));
		assertThat(report.passed()).isFalse();
		assertThat(report.summary()).startsWith("FAIL (the soak did not finish)");
	}

	@Test
	void aServerErrorLongAfterEveryFaultHealedIsCountedButAllowed() {
		cleanPayment(KEY, 7, "ch_7");
		answered(OTHER_KEY, 4, 503, false, "problem", null, null);
		answered(OTHER_KEY, 5, 201, false, BODY, 8, "ch_8");
		effects(OTHER_KEY, 8, "ch_8", BODY);
		Report report = check();
		assertThat(report.violations()).isEmpty();
		assertThat(report.calmServerErrors()).isOne();
		assertThat(report.summary()).contains(" 5xx-while-calm=1 ");
	}

	@Test
	void acknowledgementsWhileAFaultIsActiveCountTowardsTheFaultThroughput() {
		this.faults.add(new Fault(FaultKind.LATENCY, 1, 11_000, 21_000, "500 ms"));
		for (int i = 0; i < 30; i++) {
			String key = "k" + i;
			long at = (i < 10) ? 12_000 + i : 30_000 + i;
			this.attempts.add(new Attempt(1, key, 1, 1, "run", at - 5, at, 201, false, null, BODY, null, "r", (long) i,
					"ch_" + i));
			effects(key, i, "ch_" + i, BODY);
		}
		Report report = check();
		assertThat(report.throughput().faultSeconds()).isEqualTo(10.0);
		assertThat(report.throughput().calmSeconds()).isEqualTo(50.0);
		assertThat(report.throughput().duringFaults()).isEqualTo(1.0);
		assertThat(report.throughput().calm()).isEqualTo(0.4);
	}

	private void assertOnlyViolation(Category category, String key) {
		Report report = check();
		assertThat(report.violations()).isNotEmpty().allSatisfy((violation) -> {
			assertThat(violation.category()).isEqualTo(category);
			assertThat(violation.key()).isEqualTo(key);
		});
		assertThat(report.passed()).isFalse();
		assertThat(report.count(category)).isOne();
		assertThat(report.summary()).startsWith("FAIL ").contains(" " + category.label() + "=1");
	}

	private Report check() {
		return HistoryChecker.check(new History(this.run, this.attempts, this.faults),
				new DatabaseState(this.payments, this.charges, this.records));
	}

	private Report checkWithGateway() {
		return HistoryChecker.check(new History(this.run, this.attempts, this.faults),
				new DatabaseState(this.payments, this.charges, this.records, this.calls));
	}

	private static GatewayLog.Call capture(String key, String operation, String token, long start, long end,
			String chargeId) {
		return new GatewayLog.Call(GatewayLog.CAPTURE, "default:" + operation + ":" + key, token, start, end, chargeId,
				false, "SUCCEEDED", end - start);
	}

	private static GatewayLog.Call call(String key, String operation, String token, long start, long end,
			String chargeId, boolean created) {
		return new GatewayLog.Call(GatewayLog.CHARGE, "default:" + operation + ":" + key, token, start, end, chargeId,
				created, "SUCCEEDED", end - start);
	}

	/**
	 * A payment that met a transient error, a lost connection, an in-progress conflict, then
	 * succeeded, and was replayed once at the end; with its effects.
	 */
	private void cleanPayment(String key, int paymentId, String chargeId) {
		if (this.faults.isEmpty()) {
			this.faults.add(new Fault(FaultKind.KILL, 2, 5_000, 20_000, "restarted after 15000 ms"));
		}
		answered(key, 1, 503, false, "problem", null, null);
		failed(key, 2);
		problem(key, 3, 409, HistoryChecker.IN_PROGRESS_TYPE);
		answered(key, 4, 201, false, BODY, paymentId, chargeId);
		answered(key, 5, 201, true, BODY, paymentId, chargeId);
		effects(key, paymentId, chargeId, BODY);
	}

	private void effects(String key, long paymentId, String chargeId, String storedBody) {
		this.payments.add(new Payment(key, paymentId, "SUCCEEDED", chargeId));
		this.charges.add(new Charge(key, chargeId, "SUCCEEDED", 2));
		this.records.add(new IdempotencyRecord(key, "COMPLETED", null, true, 201, storedBody));
	}

	private void answered(String key, int attempt, int status, boolean replayed, String body, Integer paymentId,
			String chargeId) {
		long at = 10_000L * attempt;
		this.attempts.add(new Attempt(1, key, attempt, 1 + attempt % 3, "run", at, at + 5, status, replayed, null, body,
				null, "r", (paymentId != null) ? paymentId.longValue() : null, chargeId));
	}

	private void accepted(String key, int attempt, int status, boolean poll) {
		long at = 10_000L * attempt;
		this.attempts.add(new Attempt(1, key, attempt, 1, "run", at, at + 5, status, false, null, "state", null, "r",
				null, null, false, true, poll));
	}

	private void problem(String key, int attempt, int status, String type) {
		long at = 10_000L * attempt;
		this.attempts.add(new Attempt(1, key, attempt, 1, "run", at, at + 5, status, false, type, "problem", null, "r",
				null, null));
	}

	private void failed(String key, int attempt) {
		long at = 10_000L * attempt;
		this.attempts.add(new Attempt(1, key, attempt, 1, "run", at, at + 10_000, null, false, null, null,
				"HttpTimeoutException: request timed out", "r", null, null));
	}

}
