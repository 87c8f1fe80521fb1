package io.github.idempotency.sample.ledger;

/**
 * Thrown when an event cannot be posted to the ledger. It is listed in
 * {@code idempotency.classification.final-exceptions}, so the failure is stored: a redelivery of
 * the event gets it again, as an {@code IdempotentOperationFailedException}, without running.
 */
public class InvalidLedgerEventException extends RuntimeException {

	public InvalidLedgerEventException(String message) {
		super(message);
	}

}
