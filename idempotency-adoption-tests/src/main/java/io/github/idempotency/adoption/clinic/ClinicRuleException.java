package io.github.idempotency.adoption.clinic;

/**
 * Thrown when a request breaks one of the clinic's business rules.
 */
class ClinicRuleException extends RuntimeException {

	ClinicRuleException(String message) {
		super(message);
	}

}
