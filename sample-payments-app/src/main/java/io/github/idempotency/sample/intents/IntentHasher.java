package io.github.idempotency.sample.intents;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Derives an intent's hash and the idempotency key of its mandate,
 * {@code intent_mandate:{userId}:{intentHash}}, so that the same intent gets the same mandate. The
 * hash is the hex SHA-256 of the intent's canonical form: compact UTF-8 JSON with the members in
 * this order, the merchants and skus sorted, the booleans with their defaults filled in, an absent
 * list as an empty one and the expiry as an ISO-8601 instant in UTC, such as
 * {@code {"description":"…","merchants":["m-1","m-2"],"skus":[],"maxAmount":20000,"currency":"EUR",
 * "requiresRefundability":false,"userCartConfirmationRequired":true,"expiresAt":"2030-01-01T00:00:00Z"}}.
 * The user is in the key, not in the hash.
 */
@Component("intentHasher")
public class IntentHasher {

	static final String KEY_PREFIX = "intent_mandate:";

	/**
	 * What a user id may be.
	 */
	static final Pattern USER_ID = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

	private static final Comparator<String> CANONICAL_ORDER = Comparator.nullsFirst(Comparator.naturalOrder());

	private final JsonMapper canonicalJson = JsonMapper.builder().build();

	/**
	 * Return the idempotency key of a request's mandate; called from the key expression of
	 * {@code POST /intent-mandates}, so before anything is claimed.
	 * @param request the request
	 * @return {@code intent_mandate:{userId}:{intentHash}}
	 * @throws InvalidIntentException if the request names no valid user, so that no key can be made
	 */
	public String keyFor(CreateIntentMandateRequest request) {
		if (request.userId() == null || !USER_ID.matcher(request.userId()).matches()) {
			throw new InvalidIntentException(
					List.of("userId is required: 1 to 64 letters, digits, '.', '_', '@' or '-'"));
		}
		return KEY_PREFIX + request.userId() + ":" + hash(request);
	}

	/**
	 * Return the hash of a request's intent, whatever the order of its lists and members.
	 * @param request the request
	 * @return the lower-case hex SHA-256 of the canonical form
	 */
	public String hash(CreateIntentMandateRequest request) {
		return HexFormat.of().formatHex(sha256(canonicalForm(request)));
	}

	/**
	 * Return the canonical form of a request's intent.
	 * @param request the request
	 * @return compact JSON, see the class description
	 */
	public byte[] canonicalForm(CreateIntentMandateRequest request) {
		return this.canonicalJson.writeValueAsBytes(new CanonicalIntent(request.description(),
				sorted(request.merchants()), sorted(request.skus()), request.maxAmount(), request.currency(),
				request.refundabilityRequired(), request.cartConfirmationRequired(),
				(request.expiresAt() != null) ? request.expiresAt().toString() : null));
	}

	/**
	 * Return a list in canonical order.
	 * @param values the values, may be {@code null}
	 * @return the values sorted, empty for {@code null}
	 */
	static List<String> sorted(List<String> values) {
		return (values != null) ? values.stream().sorted(CANONICAL_ORDER).toList() : List.of();
	}

	private static byte[] sha256(byte[] bytes) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(bytes);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is not available", ex);
		}
	}

	/**
	 * What the hash is taken over.
	 */
	@JsonPropertyOrder({ "description", "merchants", "skus", "maxAmount", "currency", "requiresRefundability",
			"userCartConfirmationRequired", "expiresAt" })
	record CanonicalIntent(String description, List<String> merchants, List<String> skus, Long maxAmount,
			String currency, boolean requiresRefundability, boolean userCartConfirmationRequired, String expiresAt) {

	}

}
