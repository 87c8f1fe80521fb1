package io.github.idempotency.kafka;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;

/**
 * Hints for what the Kafka adapter reflects on: the back-off function an error handler was given,
 * which {@link IdempotentRecordBackOff} keeps. Types are named, so that no Kafka library is needed.
 */
final class KafkaRuntimeHints implements RuntimeHintsRegistrar {

	private static final String FAILED_RECORD_PROCESSOR = "org.springframework.kafka.listener.FailedRecordProcessor";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		if (ClassUtils.isPresent(FAILED_RECORD_PROCESSOR, classLoader)) {
			hints.reflection()
				.registerType(TypeReference.of(FAILED_RECORD_PROCESSOR),
						(type) -> type.withField(IdempotentRecordBackOff.CONFIGURED_FIELD));
		}
	}

}
