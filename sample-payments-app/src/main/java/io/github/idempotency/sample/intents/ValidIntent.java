package io.github.idempotency.sample.intents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An intent that may become a mandate.
 *
 * @param description what the agent may buy, at most 500 characters
 * @param merchants at most 50 distinct merchant ids, sorted
 * @param skus at most 50 distinct skus, sorted
 * @param maxAmount a positive amount in minor units
 * @param currency a known ISO 4217 code
 * @param requiresRefundability whether only refundable purchases are allowed
 * @param userCartConfirmationRequired whether the user confirms each cart
 * @param expiresAt in the future, at most {@link #MAX_VALIDITY} away, to the millisecond
 */
record ValidIntent(String description, List<String> merchants, List<String> skus, long maxAmount, String currency,
		boolean requiresRefundability, boolean userCartConfirmationRequired, Instant expiresAt) {

	/**
	 * How far ahead a mandate may expire.
	 */
	static final Duration MAX_VALIDITY = Duration.ofDays(90);

	private static final int MAX_DESCRIPTION_LENGTH = 500;

	private static final int MAX_ENTRIES = 50;

	private static final int MAX_ENTRY_LENGTH = 64;

	/**
	 * Validate a request.
	 * @param request the request as received
	 * @param now the current time
	 * @return the validated intent
	 * @throws InvalidIntentException listing everything that is wrong with the request
	 */
	static ValidIntent from(CreateIntentMandateRequest request, Instant now) {
		List<String> errors = new ArrayList<>();
		if (request.description() == null || request.description().isBlank()) {
			errors.add("description is required");
		}
		else if (request.description().length() > MAX_DESCRIPTION_LENGTH) {
			errors.add("description must be at most " + MAX_DESCRIPTION_LENGTH + " characters long");
		}
		validateEntries("merchants", request.merchants(), errors);
		validateEntries("skus", request.skus(), errors);
		if (request.maxAmount() == null || request.maxAmount() <= 0) {
			errors.add("maxAmount must be positive");
		}
		if (request.currency() == null) {
			errors.add("currency is required");
		}
		else if (!isKnownCurrency(request.currency())) {
			errors.add("currency must be a known ISO 4217 code");
		}
		if (request.expiresAt() == null) {
			errors.add("expiresAt is required");
		}
		else if (!request.expiresAt().isAfter(now)) {
			errors.add("expiresAt must be in the future");
		}
		else if (request.expiresAt().isAfter(now.plus(MAX_VALIDITY))) {
			errors.add("expiresAt must be at most " + MAX_VALIDITY.toDays() + " days ahead");
		}
		else if (request.expiresAt().getNano() % 1_000_000 != 0) {
			errors.add("expiresAt must not be more precise than a millisecond");
		}
		if (!errors.isEmpty()) {
			throw new InvalidIntentException(errors);
		}
		return new ValidIntent(request.description(), IntentHasher.sorted(request.merchants()),
				IntentHasher.sorted(request.skus()), request.maxAmount(), request.currency(),
				request.refundabilityRequired(), request.cartConfirmationRequired(), request.expiresAt());
	}

	private static void validateEntries(String name, List<String> entries, List<String> errors) {
		if (entries == null) {
			return;
		}
		if (entries.size() > MAX_ENTRIES) {
			errors.add(name + " must hold at most " + MAX_ENTRIES + " entries");
			return;
		}
		Set<String> seen = new HashSet<>();
		for (int i = 0; i < entries.size(); i++) {
			String entry = entries.get(i);
			String at = name + "[" + i + "]";
			if (entry == null || entry.isBlank()) {
				errors.add(at + " must not be blank");
			}
			else if (entry.length() > MAX_ENTRY_LENGTH) {
				errors.add(at + " must be at most " + MAX_ENTRY_LENGTH + " characters long");
			}
			else if (!seen.add(entry)) {
				errors.add(at + " repeats an earlier entry");
			}
		}
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
