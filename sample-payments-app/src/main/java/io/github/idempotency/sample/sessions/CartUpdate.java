package io.github.idempotency.sample.sessions;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A valid cart update.
 *
 * @param sequence the update's number, 1 or more
 * @param changes one to 100 changes with distinct skus, in the order sent
 */
record CartUpdate(long sequence, List<CartChange> changes) {

	static final int MAX_CHANGES = 100;

	static final int MAX_QUANTITY = 9999;

	private static final Pattern SKU = Pattern.compile("[A-Za-z0-9._-]{1,64}");

	/**
	 * Validate a request.
	 * @param request the request as received
	 * @return the validated update
	 * @throws InvalidCartUpdateException listing everything that is wrong with the request
	 */
	static CartUpdate from(CartUpdateRequest request) {
		List<String> errors = new ArrayList<>();
		if (request.sequence() == null || request.sequence() < 1) {
			errors.add("sequence is required: a whole number from 1, one more for each update of the session");
		}
		List<CartChange> changes = (request.changes() != null) ? request.changes() : List.of();
		if (changes.isEmpty()) {
			errors.add("changes must not be empty");
		}
		else if (changes.size() > MAX_CHANGES) {
			errors.add("changes must hold at most " + MAX_CHANGES + " lines");
		}
		else {
			validateChanges(changes, errors);
		}
		if (!errors.isEmpty()) {
			throw new InvalidCartUpdateException(errors);
		}
		return new CartUpdate(request.sequence(), List.copyOf(changes));
	}

	private static void validateChanges(List<CartChange> changes, List<String> errors) {
		Set<String> skus = new HashSet<>();
		for (int i = 0; i < changes.size(); i++) {
			CartChange change = changes.get(i);
			String at = "changes[" + i + "]";
			if (change == null) {
				errors.add(at + " is required");
				continue;
			}
			if (change.sku() == null || !SKU.matcher(change.sku()).matches()) {
				errors.add(at + ".sku is required: 1 to 64 letters, digits, '.', '_' or '-'");
			}
			else if (!skus.add(change.sku())) {
				errors.add(at + ".sku repeats an earlier line");
			}
			if (change.quantity() == null || change.quantity() < 0 || change.quantity() > MAX_QUANTITY) {
				errors.add(at + ".quantity must be 0 (to remove the sku) to " + MAX_QUANTITY);
			}
		}
	}

}
