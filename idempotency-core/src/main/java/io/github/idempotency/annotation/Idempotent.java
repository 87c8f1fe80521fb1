package io.github.idempotency.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method whose effect must happen at most once per idempotency key, with every retry
 * answered by the response of the first execution.
 *
 * <p>On a Spring MVC handler method the key is read from the {@code Idempotency-Key} request
 * header (the header name is configurable with {@code idempotency.key-header}) unless
 * {@link #key()} derives one from the method arguments.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Idempotent {

	/**
	 * Stable name of the operation, used to scope keys, to look up
	 * {@code idempotency.operations.<name>.*} settings and as the {@code operation} meter tag.
	 * Defaults to the HTTP method and route template, such as {@code POST /payments}, or to
	 * {@code SimpleClassName.method} outside Spring MVC.
	 * @return the operation name
	 */
	String operation() default "";

	/**
	 * SpEL expression over the method arguments that derives the key, such as
	 * {@code 'webhook:' + #event.id}. Empty means the key comes from the request header.
	 * @return the key expression
	 */
	String key() default "";

	/**
	 * SpEL expression over the method arguments that yields what identifies a call of a bean
	 * method for its fingerprint, such as {@code #event} or {@code {#order.id, #order.lines}};
	 * the key reused for a call that yields something else is refused as a different request.
	 * Empty means the arguments, without the transport metadata of a message listener (a
	 * RabbitMQ {@code Channel}, {@code MessageHeaders}, {@code @Header} and {@code @Headers}
	 * parameters, a Kafka {@code Acknowledgment}, ...; an AMQP or Spring messaging
	 * {@code Message} counts by its body or payload), which differs on every delivery of one
	 * message. Not for Spring MVC handlers, whose request is their fingerprint.
	 * @return the fingerprint expression
	 */
	String fingerprint() default "";

	/**
	 * Whether a key is required. A request without one is refused with {@code 400} when
	 * {@code true}, and runs without idempotency protection when {@code false}.
	 * @return whether a key is required
	 */
	boolean required() default true;

	/**
	 * Crash-safety mode of the operation; empty uses {@code idempotency.operations.<name>.mode},
	 * then {@code idempotency.default-mode}.
	 * @return at most one mode
	 */
	IdempotencyMode[] mode() default {};

}
