package io.github.idempotency.sample.fingerprint;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.stereotype.Component;

import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.RequestFingerprinter;
import io.github.idempotency.fingerprint.Sha256RequestFingerprinter;

/**
 * Replaces the starter's fingerprint so that a request whose key is a canonical hash of its body
 * (a cart, an intent) is a retry when it is sent again with its unordered lists in another order,
 * not a different request reusing the key: for the operations of the {@link BodyDerivedKey} beans
 * the fingerprint is taken over the key instead of the body, whose list order the standard
 * fingerprint keeps. Every other operation keeps the standard fingerprint.
 */
@Component
class DerivedKeyFingerprinter implements RequestFingerprinter {

	private final RequestFingerprinter standard = new Sha256RequestFingerprinter();

	private final Map<String, BodyDerivedKey> keys;

	DerivedKeyFingerprinter(List<BodyDerivedKey> keys) {
		this.keys = keys.stream().collect(Collectors.toUnmodifiableMap(BodyDerivedKey::operation, Function.identity()));
	}

	@Override
	public String fingerprint(FingerprintRequest request) {
		BodyDerivedKey derived = this.keys.get(request.operation());
		String key = (derived != null) ? derived.keyOf(request.body()) : null;
		if (key == null) {
			return this.standard.fingerprint(request);
		}
		return this.standard.fingerprint(new FingerprintRequest(request.operation(), request.path(), request.query(),
				"text/plain", key.getBytes(StandardCharsets.UTF_8)));
	}

}
