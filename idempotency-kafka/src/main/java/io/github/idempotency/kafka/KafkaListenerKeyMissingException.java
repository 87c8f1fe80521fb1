package io.github.idempotency.kafka;

import java.util.List;

/**
 * Thrown at start-up when {@code @Idempotent} Kafka listeners have no way to find their key.
 */
class KafkaListenerKeyMissingException extends IllegalStateException {

	private final List<String> methods;

	KafkaListenerKeyMissingException(List<String> methods) {
		super("These @Idempotent Kafka listeners have no key expression and no parameter that carries the "
				+ "Idempotency-Key header: " + methods);
		this.methods = methods;
	}

	List<String> methods() {
		return this.methods;
	}

}
