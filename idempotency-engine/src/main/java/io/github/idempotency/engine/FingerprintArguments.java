package io.github.idempotency.engine;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.util.ReflectionUtils;

/**
 * The arguments of a bean method as its fingerprint counts them: the payload of a message
 * listener, never the transport metadata that differs from one delivery of a message to the next
 * (a delivery tag, a redelivered flag, a channel). An argument of a transport type, or one
 * annotated {@code @Header} or {@code @Headers}, counts as {@code null}; an AMQP
 * {@code Message} counts by its body and a Spring messaging {@code Message} by its payload. Types
 * are known by name, so that no transport library is needed; a technology's
 * {@link MessageArguments} may name more, and is asked first.
 */
class FingerprintArguments {

	private static final Set<String> TRANSPORT_TYPES = Set.of("com.rabbitmq.client.Channel",
			"org.springframework.amqp.core.MessageProperties", "org.springframework.messaging.MessageHeaders",
			"org.springframework.kafka.support.Acknowledgment", "org.apache.kafka.clients.consumer.Consumer",
			"jakarta.jms.Session");

	private static final Set<String> HEADER_ANNOTATIONS = Set.of(
			"org.springframework.messaging.handler.annotation.Header",
			"org.springframework.messaging.handler.annotation.Headers");

	private static final Map<String, String> MESSAGE_CONTENT = Map.of("org.springframework.amqp.core.Message",
			"getBody", "org.springframework.messaging.Message", "getPayload");

	private static final Function<Object, @Nullable Object> AS_IS = (argument) -> argument;

	private static final Function<Object, @Nullable Object> LEFT_OUT = (argument) -> null;

	private final Map<Class<?>, Function<Object, @Nullable Object>> byType = new ConcurrentHashMap<>();

	private final Map<Method, boolean[]> headerParameters = new ConcurrentHashMap<>();

	private final List<MessageArguments> messageArguments;

	FingerprintArguments(List<MessageArguments> messageArguments) {
		this.messageArguments = List.copyOf(messageArguments);
	}

	/**
	 * Return what counts of each argument of a call.
	 * @param method the method called
	 * @param arguments its arguments
	 * @return one value per argument, {@code null} for an argument that does not count
	 */
	@Nullable Object[] of(Method method, @Nullable Object[] arguments) {
		boolean[] headers = this.headerParameters.computeIfAbsent(method, FingerprintArguments::headerParameters);
		@Nullable Object[] counted = new Object[arguments.length];
		for (int i = 0; i < arguments.length; i++) {
			Object argument = arguments[i];
			boolean header = i < headers.length && headers[i];
			if (argument != null && !header) {
				counted[i] = this.byType.computeIfAbsent(argument.getClass(), this::countingOf)
					.apply(argument);
			}
		}
		return counted;
	}

	private static boolean[] headerParameters(Method method) {
		Annotation[][] annotations = method.getParameterAnnotations();
		boolean[] headers = new boolean[annotations.length];
		for (int i = 0; i < annotations.length; i++) {
			for (Annotation annotation : annotations[i]) {
				headers[i] |= HEADER_ANNOTATIONS.contains(annotation.annotationType().getName());
			}
		}
		return headers;
	}

	private Function<Object, @Nullable Object> countingOf(Class<?> type) {
		for (MessageArguments technology : this.messageArguments) {
			Function<Object, @Nullable Object> payload = technology.payload(type);
			if (payload != null) {
				return payload;
			}
		}
		for (Class<?> candidate : typeAndSupertypes(type)) {
			String name = candidate.getName();
			if (TRANSPORT_TYPES.contains(name)) {
				return LEFT_OUT;
			}
			String accessor = MESSAGE_CONTENT.get(name);
			Method content = (accessor != null) ? ReflectionUtils.findMethod(candidate, accessor) : null;
			if (content != null) {
				return (message) -> ReflectionUtils.invokeMethod(content, message);
			}
		}
		return AS_IS;
	}

	private static Set<Class<?>> typeAndSupertypes(Class<?> type) {
		Set<Class<?>> seen = new LinkedHashSet<>();
		Deque<Class<?>> toVisit = new ArrayDeque<>(List.of(type));
		while (!toVisit.isEmpty()) {
			Class<?> next = toVisit.poll();
			if (seen.add(next)) {
				if (next.getSuperclass() != null) {
					toVisit.add(next.getSuperclass());
				}
				toVisit.addAll(List.of(next.getInterfaces()));
			}
		}
		return seen;
	}

}
