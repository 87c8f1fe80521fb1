package io.github.idempotency.engine;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;

import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.annotation.IdempotentSequence;

/**
 * Finds and caches the {@link Idempotent @Idempotent} settings of methods, failing fast on a key
 * or fingerprint expression that does not parse or more than one mode.
 */
public class IdempotentAttributeSource {

	private static final SpelExpressionParser PARSER = new SpelExpressionParser();

	private final Map<MethodClassKey, Optional<IdempotentAttributes>> cache = new ConcurrentHashMap<>();

	/**
	 * Return the settings of a method, looking at the most specific method of the target class
	 * and then the method as declared.
	 * @param method the method
	 * @param targetClass the class the method is invoked on, may be {@code null}
	 * @return the settings, or {@code null} if the method is not idempotent
	 */
	public IdempotentAttributes find(Method method, Class<?> targetClass) {
		return this.cache.computeIfAbsent(new MethodClassKey(method, targetClass), (key) -> resolve(method, targetClass))
			.orElse(null);
	}

	private static Optional<IdempotentAttributes> resolve(Method method, Class<?> targetClass) {
		Method specific = ClassUtils.getMostSpecificMethod(method, (targetClass != null) ? targetClass
				: method.getDeclaringClass());
		Idempotent annotation = AnnotatedElementUtils.findMergedAnnotation(specific, Idempotent.class);
		if (annotation == null && specific != method) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(method, Idempotent.class);
		}
		if (annotation == null) {
			return Optional.empty();
		}
		if (annotation.mode().length > 1) {
			throw new IllegalStateException("@Idempotent on " + specific + " names more than one mode");
		}
		IdempotentSequence sequence = AnnotatedElementUtils.findMergedAnnotation(specific, IdempotentSequence.class);
		if (sequence == null && specific != method) {
			sequence = AnnotatedElementUtils.findMergedAnnotation(method, IdempotentSequence.class);
		}
		Expression key;
		Expression fingerprint;
		try {
			key = annotation.key().isBlank() ? null : PARSER.parseExpression(annotation.key());
		}
		catch (ParseException ex) {
			throw new IllegalStateException("The @Idempotent key expression of " + specific + " does not parse", ex);
		}
		try {
			fingerprint = annotation.fingerprint().isBlank() ? null : PARSER.parseExpression(annotation.fingerprint());
		}
		catch (ParseException ex) {
			throw new IllegalStateException("The @Idempotent fingerprint expression of " + specific
					+ " does not parse", ex);
		}
		return Optional.of(new IdempotentAttributes(specific, annotation.operation().trim(), key,
				annotation.required(), (annotation.mode().length == 1) ? annotation.mode()[0] : null,
				sequence(sequence, specific), fingerprint));
	}

	private static IdempotentAttributes.@Nullable Sequence sequence(@Nullable IdempotentSequence sequence,
			Method method) {
		if (sequence == null) {
			return null;
		}
		try {
			return new IdempotentAttributes.Sequence(PARSER.parseExpression(sequence.scope()),
					PARSER.parseExpression(sequence.value()));
		}
		catch (ParseException | IllegalStateException ex) {
			throw new IllegalStateException("The @IdempotentSequence expressions of " + method + " do not parse", ex);
		}
	}

}
