package io.github.idempotency.sample.intents;

import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.sample.fingerprint.BodyDerivedKey;

/**
 * The key of a {@code POST /intent-mandates} body, so that an intent sent again with its merchants
 * or skus in another order is fingerprinted as the same request.
 */
@Component
class IntentMandateBodyKey implements BodyDerivedKey {

	private final JsonMapper json;

	private final IntentHasher hasher;

	IntentMandateBodyKey(JsonMapper json, IntentHasher hasher) {
		this.json = json;
		this.hasher = hasher;
	}

	@Override
	public String operation() {
		return IntentMandateController.CREATE_OPERATION;
	}

	@Override
	public String keyOf(byte[] body) {
		try {
			return this.hasher.keyFor(this.json.readValue(body, CreateIntentMandateRequest.class));
		}
		catch (JacksonException | InvalidIntentException ex) {
			return null;
		}
	}

}
