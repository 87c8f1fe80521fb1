package io.github.idempotency.aop;

import java.lang.reflect.Method;

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
 */
public record IdempotentAttributes(Method method, String operation, Expression keyExpression, boolean required,
		IdempotencyMode mode) {

	/**
	 * Return the operation name for calls outside Spring MVC.
	 * @return the explicit name, or {@code SimpleClassName.method}
	 */
	public String operationOutsideWeb() {
		return this.operation.isEmpty() ? this.method.getDeclaringClass().getSimpleName() + "." + this.method.getName()
				: this.operation;
	}

}
