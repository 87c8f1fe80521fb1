package io.github.idempotency.sample.mandates;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * Derives a cart's hash and the idempotency key of its mandate,
 * {@code cart_mandate:{customerId}:{cartHash}}, so that the same cart in any item order gets the
 * same mandate. The hash is the hex SHA-256 of the cart's canonical form: compact UTF-8 JSON with
 * the members in this order and the items sorted by sku, such as
 * {@code {"currency":"USD","items":[{"sku":"A-1","quantity":2,"unitPrice":1999}]}}.
 */
@Component("cartHasher")
public class CartHasher {

	static final String KEY_PREFIX = "cart_mandate:";

	private static final Comparator<CartItem> CANONICAL_ORDER = Comparator
		.nullsFirst(Comparator.comparing(CartItem::sku, Comparator.nullsFirst(Comparator.<String>naturalOrder()))
			.thenComparing(CartItem::quantity, Comparator.nullsFirst(Comparator.<Integer>naturalOrder()))
			.thenComparing(CartItem::unitPrice, Comparator.nullsFirst(Comparator.<Long>naturalOrder())));

	private final JsonMapper canonicalJson = JsonMapper.builder().build();

	/**
	 * Return the idempotency key of a request's mandate; called from the key expression of
	 * {@code POST /cart-mandates}, so before anything is claimed.
	 * @param request the request
	 * @return {@code cart_mandate:{customerId}:{cartHash}}
	 * @throws InvalidCartException if the request names no customer, so that no key can be made
	 */
	public String keyFor(CreateCartMandateRequest request) {
		if (!StringUtils.hasText(request.customerId())) {
			throw new InvalidCartException(List.of("customerId is required"));
		}
		return KEY_PREFIX + request.customerId() + ":" + hash(request.currency(), request.items());
	}

	/**
	 * Return the hash of a cart, whatever the order of its items.
	 * @param currency the currency code
	 * @param items the items, may be {@code null}
	 * @return the lower-case hex SHA-256 of the canonical form
	 */
	public String hash(String currency, List<CartItem> items) {
		return HexFormat.of().formatHex(sha256(canonicalForm(currency, items)));
	}

	/**
	 * Return the canonical form of a cart.
	 * @param currency the currency code
	 * @param items the items, may be {@code null}
	 * @return compact JSON with the items sorted by sku
	 */
	public byte[] canonicalForm(String currency, List<CartItem> items) {
		List<CanonicalItem> sorted = (items != null) ? items.stream()
			.sorted(CANONICAL_ORDER)
			.map((item) -> (item != null) ? new CanonicalItem(item.sku(), item.quantity(), item.unitPrice()) : null)
			.toList() : List.of();
		return this.canonicalJson.writeValueAsBytes(new CanonicalCart(currency, sorted));
	}

	/**
	 * Return the items of a cart in canonical order.
	 * @param items the items, none {@code null}
	 * @return the items sorted by sku
	 */
	static List<CartItem> sorted(List<CartItem> items) {
		return items.stream().map(Objects::requireNonNull).sorted(CANONICAL_ORDER).toList();
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
	@JsonPropertyOrder({ "currency", "items" })
	record CanonicalCart(String currency, List<CanonicalItem> items) {

	}

	/**
	 * An item as the hash covers it.
	 */
	@JsonPropertyOrder({ "sku", "quantity", "unitPrice" })
	record CanonicalItem(String sku, Integer quantity, Long unitPrice) {

	}

}
