package io.github.idempotency.sample.sync;

import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * Derives the idempotency key of a sync, {@code sync:{entity}:{id}:{baseVersion}}: one key per
 * version an update is built on, so a duplicate replays and a different update on the same
 * version is refused as stale. Everything that can be checked before the key is claimed is checked
 * here, so that a malformed request, or one built on a version that does not exist yet, is refused
 * without using up the key of its version.
 */
@Component("syncKeys")
public class SyncKeys {

	static final String PRODUCT = "product";

	static final String USER = "user";

	/**
	 * The request attribute that holds the {@link SyncTarget} of a sync request.
	 */
	static final String TARGET_ATTRIBUTE = SyncKeys.class.getName() + ".target";

	private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

	private static final Pattern PURPOSE = Pattern.compile("[a-z][a-z_]{0,31}");

	private static final int MAX_PURPOSES = 20;

	private final SyncRows rows;

	SyncKeys(SyncRows rows) {
		this.rows = rows;
	}

	/**
	 * Return the key of a product sync.
	 * @param id the product id
	 * @param request the request
	 * @return {@code sync:product:{id}:{baseVersion}}
	 * @throws InvalidSyncException if the request is malformed
	 * @throws UnknownVersionException if the product has not reached the base version
	 */
	public String product(String id, ProductSyncRequest request) {
		List<String> errors = new ArrayList<>();
		checkIdAndBase(id, request.baseVersion(), errors);
		if (request.name() == null || request.name().isBlank() || request.name().length() > 200) {
			errors.add("name is required, at most 200 characters long");
		}
		if (request.price() == null || request.price() < 0) {
			errors.add("price must not be negative");
		}
		if (!isKnownCurrency(request.currency())) {
			errors.add("currency must be a known ISO 4217 code");
		}
		return keyOf(new SyncTarget(PRODUCT, id, (request.baseVersion() != null) ? request.baseVersion() : -1), errors);
	}

	/**
	 * Return the key of a user sync.
	 * @param id the user id
	 * @param request the request
	 * @return {@code sync:user:{id}:{baseVersion}}
	 * @throws InvalidSyncException if the request is malformed
	 * @throws UnknownVersionException if the user has not reached the base version
	 */
	public String user(String id, UserSyncRequest request) {
		List<String> errors = new ArrayList<>();
		checkIdAndBase(id, request.baseVersion(), errors);
		if (request.email() == null || request.email().length() > 254 || request.email().indexOf('@') < 1) {
			errors.add("email is required: an address with an '@', at most 254 characters long");
		}
		if (request.displayName() != null && request.displayName().length() > 200) {
			errors.add("displayName must be at most 200 characters long");
		}
		Map<String, Boolean> consents = (request.consents() != null) ? request.consents() : Map.of();
		if (consents.size() > MAX_PURPOSES) {
			errors.add("consents must name at most " + MAX_PURPOSES + " purposes");
		}
		consents.forEach((purpose, granted) -> {
			if (!PURPOSE.matcher(purpose).matches()) {
				errors.add("consents: '" + purpose + "' is not a purpose (lower-case letters and '_', at most 32)");
			}
			else if (granted == null) {
				errors.add("consents." + purpose + " must be true or false");
			}
		});
		return keyOf(new SyncTarget(USER, id, (request.baseVersion() != null) ? request.baseVersion() : -1), errors);
	}

	private String keyOf(SyncTarget target, List<String> errors) {
		if (!errors.isEmpty()) {
			throw new InvalidSyncException(errors);
		}
		RequestAttributes request = RequestContextHolder.getRequestAttributes();
		if (request != null) {
			request.setAttribute(TARGET_ATTRIBUTE, target, RequestAttributes.SCOPE_REQUEST);
		}
		long current = this.rows.currentVersion(target.entity(), target.id());
		if (target.baseVersion() > current) {
			throw new UnknownVersionException(target, current);
		}
		return target.key();
	}

	private static void checkIdAndBase(String id, Long baseVersion, List<String> errors) {
		if (id == null || !ID.matcher(id).matches()) {
			errors.add("the id must be 1 to 64 letters, digits, '.', '_' or '-'");
		}
		if (baseVersion == null || baseVersion < 0) {
			errors.add("baseVersion is required: 0 to create, else the version the update was built on");
		}
	}

	private static boolean isKnownCurrency(String code) {
		try {
			return code != null && Currency.getInstance(code).getCurrencyCode().equals(code);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

}
