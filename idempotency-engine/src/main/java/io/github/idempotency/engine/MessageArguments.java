package io.github.idempotency.engine;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * What a messaging technology tells the bean-method entry point about the arguments of a
 * listener's call: the idempotency key its message carries, for a method whose
 * {@code @Idempotent} names no key expression, and the payload of a message argument, which is
 * what its fingerprint counts of it.
 *
 * @since 0.1.0
 */
public interface MessageArguments {

	/**
	 * Return the idempotency key the message of a call carries, as sent.
	 * @param attributes the method's settings
	 * @param arguments the call's arguments
	 * @return the raw key, or {@code null} if no argument is a message of this technology or the
	 * message carries none
	 */
	@Nullable String key(IdempotentAttributes attributes, @Nullable Object[] arguments);

	/**
	 * Return what the fingerprint counts of an argument of the given type.
	 * @param type the type of an argument
	 * @return a function from the argument to what counts of it ({@code null} for nothing), or
	 * {@code null} if the type is not a message type of this technology
	 */
	@Nullable Function<Object, @Nullable Object> payload(Class<?> type);

}
