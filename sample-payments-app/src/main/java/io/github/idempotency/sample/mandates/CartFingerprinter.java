package io.github.idempotency.sample.mandates;

import java.nio.charset.StandardCharsets;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

import io.github.idempotency.core.FingerprintRequest;
import io.github.idempotency.core.RequestFingerprinter;
import io.github.idempotency.core.Sha256RequestFingerprinter;

/**
 * Replaces the starter's fingerprint so that a cart sent again with its items in another order
 * is a retry, not a different request reusing the key: for {@code POST /cart-mandates} the
 * fingerprint is taken over the key, which already is a canonical hash of the cart, instead of
 * the body, whose item order the standard fingerprint keeps. Every other operation keeps the
 * standard fingerprint.
 */
@Component
class CartFingerprinter implements RequestFingerprinter {

	private final RequestFingerprinter standard = new Sha256RequestFingerprinter();

	private final JsonMapper json;

	private final CartHasher hasher;

	CartFingerprinter(JsonMapper json, CartHasher hasher) {
		this.json = json;
		this.hasher = hasher;
	}

	@Override
	public String fingerprint(FingerprintRequest request) {
		if (!CartMandateController.CREATE_OPERATION.equals(request.operation())) {
			return this.standard.fingerprint(request);
		}
		String key;
		try {
			key = this.hasher.keyFor(this.json.readValue(request.body(), CreateCartMandateRequest.class));
		}
		catch (JacksonException | InvalidCartException ex) {
			return this.standard.fingerprint(request);
		}
		return this.standard.fingerprint(new FingerprintRequest(request.operation(), request.path(), request.query(),
				"text/plain", key.getBytes(StandardCharsets.UTF_8)));
	}

}
