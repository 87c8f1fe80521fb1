package io.github.idempotency.sample.reliability;

/**
 * {@code kill -9} of the packaged application in ATOMIC mode, with its {@code mariadb} profile, at
 * each point of a payment, then a restart: MariaDB rolls the claim and the payment back with the
 * killed connection, so a retry runs at once, and the payment ends with exactly one charge, thanks
 * to the gateway's idempotency (SPEC 6 and 10).
 */
class MariaDbAtomicProcessCrashIT extends AtomicProcessCrashScenarios {

	MariaDbAtomicProcessCrashIT() {
		super("atomicmaria", SampleDatabase::mariadb);
	}

}
