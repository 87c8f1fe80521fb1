package io.github.idempotency.kafka;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains why an {@code @Idempotent} Kafka listener without a key source is refused, and the
 * ways to give it one.
 */
class KafkaListenerKeyMissingFailureAnalyzer extends AbstractFailureAnalyzer<KafkaListenerKeyMissingException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, KafkaListenerKeyMissingException cause) {
		StringBuilder description = new StringBuilder("""
				These @Idempotent Kafka listeners name no key expression and take no argument that carries the \
				record's Idempotency-Key header, so every record they receive would be refused without running:""");
		cause.methods().forEach((method) -> description.append("\n    - ").append(method));
		String action = """
				Derive the key from the event with a key expression, such as \
				@Idempotent(key = "'order:' + #event.orderId()"); or have the producer send an Idempotency-Key \
				header and let the listener see it: add a parameter annotated @Header("Idempotency-Key"), or \
				take the ConsumerRecord or the Message; or set @Idempotent(required = false) to run keyless \
				records unguarded.""";
		return new FailureAnalysis(description.toString(), action, cause);
	}

}
