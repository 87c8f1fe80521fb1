package io.github.idempotency.sample.reliability;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} of the packaged application in ATOMIC mode at each point of a payment, then a
 * restart: the claim and the payment roll back with the process, so a retry runs at once, and
 * the payment ends with exactly one charge, thanks to the gateway's idempotency (SPEC 6 and 10).
 * Subclasses choose the database.
 */
abstract class AtomicProcessCrashScenarios extends ProcessCrashScenarios {

	/**
	 * The scenarios on a database.
	 * @param name a short name for the database and the logs
	 * @param databases creates the database from a name
	 */
	AtomicProcessCrashScenarios(String name, Function<String, SampleDatabase> databases) {
		super("ATOMIC", name, null, databases);
	}

	@Test
	void retryAfterKillBeforeTheGatewayCallFindsNothingLeftAndChargesOnce() {
		Crash crash = crashedAt(Window.BEFORE_CHARGE);
		assertNothingCommittedButTheCharge(crash);
		assertThat(crash.charge()).isNull();
		Retry retry = retry(crash);
		assertThat(retry.conflicts()).isZero();
		assertRetryChargedOnce(crash, retry, 1);
	}

	@Test
	void retryAfterKillOnceTheGatewayChargedMakesThePaymentAgainWithTheSameCharge() {
		Crash crash = crashedAt(Window.AFTER_CHARGE);
		assertNothingCommittedButTheCharge(crash);
		assertThat(crash.charge()).containsEntry("attempts", 1);
		Retry retry = retry(crash);
		assertThat(retry.conflicts()).isZero();
		assertThat(assertRetryChargedOnce(crash, retry, 2).get("gatewayChargeId").asString())
			.isEqualTo(crash.charge().get("id"));
	}

	@Test
	void retryAfterKillOnceThePaymentSettledMakesThePaymentAgainWithTheSameCharge() {
		Crash crash = crashedAt(Window.AFTER_SETTLE);
		assertNothingCommittedButTheCharge(crash);
		assertThat(crash.charge()).containsEntry("attempts", 1);
		Retry retry = retry(crash);
		assertThat(retry.conflicts()).isZero();
		assertThat(assertRetryChargedOnce(crash, retry, 2).get("gatewayChargeId").asString())
			.isEqualTo(crash.charge().get("id"));
	}

	/**
	 * The claim and the payment were written in the request's open transaction, so they were
	 * never visible; only the gateway's charge commits on its own.
	 */
	private static void assertNothingCommittedButTheCharge(Crash crash) {
		assertThat(crash.record()).isNull();
		assertThat(crash.payment()).isNull();
	}

}
