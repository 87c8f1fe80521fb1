package io.github.idempotency.engine;

/**
 * How an execution ended when its response was offered for storing, and so what its client must
 * be answered.
 */
sealed interface Completion permits Completion.Stored, Completion.TakenOver, Completion.RolledBack,
		Completion.Superseded {

	/**
	 * The response is stored, or will be with the commit of the caller's transaction: answer it.
	 */
	Completion STORED = new Stored();

	/**
	 * The lease ran out and another request took the key over: nothing was stored.
	 */
	Completion TAKEN_OVER = new TakenOver();

	/**
	 * The operation's transaction was marked rollback-only: its writes rolled back, nothing was
	 * stored and the key is free again.
	 */
	Completion ROLLED_BACK = new RolledBack();

	/**
	 * See {@link #STORED}.
	 */
	record Stored() implements Completion {
	}

	/**
	 * See {@link #TAKEN_OVER}.
	 */
	record TakenOver() implements Completion {
	}

	/**
	 * See {@link #ROLLED_BACK}.
	 */
	record RolledBack() implements Completion {
	}

	/**
	 * An ATOMIC operation failed finally and rolled back, and a duplicate claimed the key before
	 * the failure could be stored: the key's outcome is the duplicate's, so the client gets that.
	 *
	 * @param decision a {@link Decision.Replay} of the duplicate's result, or
	 * {@link Decision.InProgress} while it runs
	 */
	record Superseded(Decision decision) implements Completion {
	}

}
