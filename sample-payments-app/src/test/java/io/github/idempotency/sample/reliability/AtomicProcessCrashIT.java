package io.github.idempotency.sample.reliability;

/**
 * {@code kill -9} of the packaged application in ATOMIC mode, with its {@code postgres} profile, at
 * each point of a payment, then a restart: the claim and the payment roll back with the process,
 * so a retry runs at once, and the payment ends with exactly one charge, thanks to the gateway's
 * idempotency (SPEC 6 and 10).
 */
class AtomicProcessCrashIT extends AtomicProcessCrashScenarios {

	AtomicProcessCrashIT() {
		super("atomic", SampleDatabase::postgres);
	}

}
