package io.github.idempotency.sample.mandates;

import java.util.ArrayList;
import java.util.Currency;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A cart that may become a mandate.
 *
 * @param customerId the customer, at most 255 characters
 * @param currency a known ISO 4217 code
 * @param items one to 100 items with distinct skus, sorted by sku
 * @param total the sum of quantity times unit price, in minor units
 */
record ValidCart(String customerId, String currency, List<CartItem> items, long total) {

	static final int MAX_ITEMS = 100;

	private static final int MAX_CUSTOMER_ID_LENGTH = 255;

	private static final int MAX_SKU_LENGTH = 64;

	/**
	 * Validate a request.
	 * @param request the request as received
	 * @return the validated cart
	 * @throws InvalidCartException listing everything that is wrong with the request
	 */
	static ValidCart from(CreateCartMandateRequest request) {
		List<String> errors = new ArrayList<>();
		if (request.customerId() == null || request.customerId().isBlank()) {
			errors.add("customerId is required");
		}
		else if (request.customerId().length() > MAX_CUSTOMER_ID_LENGTH) {
			errors.add("customerId must be at most " + MAX_CUSTOMER_ID_LENGTH + " characters long");
		}
		if (request.currency() == null) {
			errors.add("currency is required");
		}
		else if (!isKnownCurrency(request.currency())) {
			errors.add("currency must be a known ISO 4217 code");
		}
		List<CartItem> items = (request.items() != null) ? request.items() : List.of();
		if (items.isEmpty()) {
			errors.add("items must not be empty");
		}
		else if (items.size() > MAX_ITEMS) {
			errors.add("items must hold at most " + MAX_ITEMS + " lines");
		}
		else {
			validateItems(items, errors);
		}
		if (!errors.isEmpty()) {
			throw new InvalidCartException(errors);
		}
		long total = total(items);
		if (total < 0) {
			throw new InvalidCartException(List.of("the cart total is too large"));
		}
		return new ValidCart(request.customerId(), request.currency(), CartHasher.sorted(items), total);
	}

	private static void validateItems(List<CartItem> items, List<String> errors) {
		Set<String> skus = new HashSet<>();
		for (int i = 0; i < items.size(); i++) {
			CartItem item = items.get(i);
			String at = "items[" + i + "]";
			if (item == null) {
				errors.add(at + " is required");
				continue;
			}
			if (item.sku() == null || item.sku().isBlank()) {
				errors.add(at + ".sku is required");
			}
			else if (item.sku().length() > MAX_SKU_LENGTH) {
				errors.add(at + ".sku must be at most " + MAX_SKU_LENGTH + " characters long");
			}
			else if (!skus.add(item.sku())) {
				errors.add(at + ".sku repeats an earlier line; put the whole quantity on one line");
			}
			if (item.quantity() == null || item.quantity() <= 0) {
				errors.add(at + ".quantity must be positive");
			}
			if (item.unitPrice() == null) {
				errors.add(at + ".unitPrice is required");
			}
			else if (item.unitPrice() < 0) {
				errors.add(at + ".unitPrice must not be negative");
			}
		}
	}

	/**
	 * Return the total of valid items, or {@code -1} if it does not fit in a {@code long}.
	 */
	private static long total(List<CartItem> items) {
		try {
			long total = 0;
			for (CartItem item : items) {
				total = Math.addExact(total, Math.multiplyExact(item.quantity().longValue(), item.unitPrice()));
			}
			return total;
		}
		catch (ArithmeticException ex) {
			return -1;
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
