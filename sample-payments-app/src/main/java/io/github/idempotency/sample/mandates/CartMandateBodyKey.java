package io.github.idempotency.sample.mandates;

import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.sample.fingerprint.BodyDerivedKey;

/**
 * The key of a {@code POST /cart-mandates} body, so that a cart sent again with its items in
 * another order is fingerprinted as the same request.
 */
@Component
class CartMandateBodyKey implements BodyDerivedKey {

	private final JsonMapper json;

	private final CartHasher hasher;

	CartMandateBodyKey(JsonMapper json, CartHasher hasher) {
		this.json = json;
		this.hasher = hasher;
	}

	@Override
	public String operation() {
		return CartMandateController.CREATE_OPERATION;
	}

	@Override
	public String keyOf(byte[] body) {
		try {
			return this.hasher.keyFor(this.json.readValue(body, CreateCartMandateRequest.class));
		}
		catch (JacksonException | InvalidCartException ex) {
			return null;
		}
	}

}
