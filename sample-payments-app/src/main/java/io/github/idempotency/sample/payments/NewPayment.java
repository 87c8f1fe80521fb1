package io.github.idempotency.sample.payments;

import java.util.ArrayList;
import java.util.Currency;
import java.util.List;

/**
 * A validated payment request.
 *
 * @param customerId the customer to charge
 * @param amount the amount in minor units, positive
 * @param currency a known ISO 4217 currency code
 */
record NewPayment(String customerId, long amount, String currency) {

	private static final int MAX_CUSTOMER_ID_LENGTH = 255;

	/**
	 * Validate a request.
	 * @param request the request as received
	 * @return the validated payment
	 * @throws InvalidPaymentException if the request is invalid
	 */
	static NewPayment from(CreatePaymentRequest request) {
		List<String> errors = new ArrayList<>();
		String customerId = request.customerId();
		if (customerId == null || customerId.isBlank()) {
			errors.add("customerId is required");
		}
		else if (customerId.length() > MAX_CUSTOMER_ID_LENGTH) {
			errors.add("customerId must be at most " + MAX_CUSTOMER_ID_LENGTH + " characters long");
		}
		if (request.amount() == null) {
			errors.add("amount is required");
		}
		else if (request.amount() <= 0) {
			errors.add("amount must be positive");
		}
		if (request.currency() == null) {
			errors.add("currency is required");
		}
		else if (!isKnownCurrency(request.currency())) {
			errors.add("currency must be a known ISO 4217 code");
		}
		if (!errors.isEmpty()) {
			throw new InvalidPaymentException(String.join("; ", errors) + ".");
		}
		return new NewPayment(customerId, request.amount(), request.currency());
	}

	private static boolean isKnownCurrency(String code) {
		try {
			return Currency.getInstance(code).getCurrencyCode().equals(code);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

}
