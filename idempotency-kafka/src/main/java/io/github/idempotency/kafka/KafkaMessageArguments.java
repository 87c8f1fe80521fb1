package io.github.idempotency.kafka;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.Message;

import io.github.idempotency.engine.IdempotentAttributes;
import io.github.idempotency.engine.MessageArguments;

/**
 * The arguments of a Kafka listener as the bean-method entry point reads them: the key is the
 * record's {@code Idempotency-Key} header (of a {@code ConsumerRecord}, a {@code Message} or a
 * parameter annotated {@code @Header("Idempotency-Key")}), and a record counts by its value,
 * never by its topic, partition, offset, timestamp or headers.
 */
class KafkaMessageArguments implements MessageArguments {

	static final String KEY_HEADER = "Idempotency-Key";

	private static final Function<Object, @Nullable Object> RECORD_VALUE = (record) -> ((ConsumerRecord<?, ?>) record)
		.value();

	private final Map<Method, Integer> keyParameters = new ConcurrentHashMap<>();

	@Override
	public @Nullable String key(IdempotentAttributes attributes, @Nullable Object[] arguments) {
		int keyParameter = this.keyParameters.computeIfAbsent(attributes.method(), KafkaMessageArguments::keyParameter);
		if (keyParameter >= 0 && keyParameter < arguments.length && arguments[keyParameter] != null) {
			return text(arguments[keyParameter]);
		}
		for (Object argument : arguments) {
			if (argument instanceof ConsumerRecord<?, ?> record) {
				Header header = record.headers().lastHeader(KEY_HEADER);
				return (header != null && header.value() != null) ? text(header.value()) : null;
			}
			if (argument instanceof Message<?> message) {
				Object header = message.getHeaders().get(KEY_HEADER);
				return (header != null) ? text(header) : null;
			}
		}
		return null;
	}

	@Override
	public @Nullable Function<Object, @Nullable Object> payload(Class<?> type) {
		return ConsumerRecord.class.isAssignableFrom(type) ? RECORD_VALUE : null;
	}

	/**
	 * Return the index of the parameter annotated {@code @Header("Idempotency-Key")}, or -1.
	 */
	static int keyParameter(Method method) {
		Annotation[][] annotations = method.getParameterAnnotations();
		for (int i = 0; i < annotations.length; i++) {
			for (Annotation annotation : annotations[i]) {
				if (annotation instanceof org.springframework.messaging.handler.annotation.Header header
						&& (KEY_HEADER.equalsIgnoreCase(header.value()) || KEY_HEADER.equalsIgnoreCase(header.name()))) {
					return i;
				}
			}
		}
		return -1;
	}

	private static String text(Object value) {
		return (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : value.toString();
	}

}
