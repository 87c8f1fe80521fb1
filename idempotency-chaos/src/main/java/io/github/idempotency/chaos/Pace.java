package io.github.idempotency.chaos;

import java.util.concurrent.TimeUnit;

/**
 * How many workers start new payments: all of them, except in the quiet spells the nemesis makes
 * before a database crash, when only the first few do, as traffic ebbs at a quiet hour. A quiet
 * database is where an asynchronous commit stays unwritten longest: a busy one writes it with the
 * next synchronous commit of any session.
 */
final class Pace {

	private volatile int active = Integer.MAX_VALUE;

	/**
	 * Let only the first workers start new payments.
	 * @param workers how many
	 */
	void quiet(int workers) {
		this.active = workers;
	}

	/**
	 * Let every worker start new payments again.
	 */
	void busy() {
		this.active = Integer.MAX_VALUE;
	}

	/**
	 * Wait, during a quiet spell, until a worker may start its next payment.
	 * @param worker the worker's number, from 1
	 * @param until when to stop waiting regardless, epoch milliseconds
	 */
	void awaitTurn(int worker, long until) {
		while (worker > this.active && System.currentTimeMillis() < until) {
			try {
				TimeUnit.MILLISECONDS.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

}
