package io.github.idempotency.engine;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;
import org.springframework.expression.Expression;

import io.github.idempotency.annotation.IdempotencyMode;

/**
 * The {@code @Idempotent} settings of one method, with its key expression parsed once.
 *
 * @param method the annotated method
 * @param operation the explicit operation name, or empty to derive one
 * @param keyExpression the parsed key expression, or {@code null} to read the key header
 * @param required whether a key is required
 * @param mode the mode the annotation asks for, or {@code null}
 * @param sequence the parsed expressions of its {@code @IdempotentSequence}, or {@code null}
 * @param fingerprintExpression the parsed fingerprint expression, or {@code null} to fingerprint
 * the arguments
 */
public record IdempotentAttributes(Method method, String operation, Expression keyExpression, boolean required,
		IdempotencyMode mode, @Nullable Sequence sequence, @Nullable Expression fingerprintExpression) {

	/**
	 * Create the settings of a method whose fingerprint is its arguments.
	 * @param method the annotated method
	 * @param operation the explicit operation name, or empty to derive one
	 * @param keyExpression the parsed key expression, or {@code null} to read the key header
	 * @param required whether a key is required
	 * @param mode the mode the annotation asks for, or {@code null}
	 * @param sequence the parsed expressions of its {@code @IdempotentSequence}, or {@code null}
	 */
	public IdempotentAttributes(Method method, String operation, Expression keyExpression, boolean required,
			IdempotencyMode mode, @Nullable Sequence sequence) {
		this(method, operation, keyExpression, required, mode, sequence, null);
	}

	/**
	 * Create the settings of a method whose calls are not ordered by a sequence number.
	 * @param method the annotated method
	 * @param operation the explicit operation name, or empty to derive one
	 * @param keyExpression the parsed key expression, or {@code null} to read the key header
	 * @param required whether a key is required
	 * @param mode the mode the annotation asks for, or {@code null}
	 */
	public IdempotentAttributes(Method method, String operation, Expression keyExpression, boolean required,
			IdempotencyMode mode) {
		this(method, operation, keyExpression, required, mode, null, null);
	}

	/**
	 * Return the operation name for calls outside Spring MVC.
	 * @return the explicit name, or {@code SimpleClassName.method}
	 */
	public String operationOutsideWeb() {
		return this.operation.isEmpty() ? this.method.getDeclaringClass().getSimpleName() + "." + this.method.getName()
				: this.operation;
	}

	/**
	 * The parsed expressions of an {@code @IdempotentSequence}.
	 *
	 * @param scope yields the scope
	 * @param number yields the sequence number
	 */
	public record Sequence(Expression scope, Expression number) {
	}

}
