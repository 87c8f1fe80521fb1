package io.github.idempotency.engine;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationContext;

import io.github.idempotency.IdempotencyKeys;
import io.github.idempotency.InvalidSequenceException;

/**
 * Evaluates {@code @Idempotent(key = ..., fingerprint = ...)} expressions against the arguments of
 * a call: {@code #name} or {@code #p0} for an argument, {@code @bean} for a bean.
 */
public class KeyExpressionEvaluator {

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private final BeanFactory beanFactory;

	public KeyExpressionEvaluator(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Derive the key of a call from its key expression, as {@link IdempotencyKeys#fromDerivedValue}
	 * makes a key of a value.
	 * @param attributes the method's settings, with a key expression
	 * @param invocation the call
	 * @return the key, or {@code null} if the expression yields {@code null} or an empty string
	 */
	public @Nullable String key(IdempotentAttributes attributes, MethodInvocation invocation) {
		Object value = attributes.keyExpression().getValue(context(attributes, invocation));
		String derived = (value != null) ? value.toString() : null;
		return (derived == null || derived.isEmpty()) ? null : IdempotencyKeys.fromDerivedValue(derived);
	}

	/**
	 * Evaluate the fingerprint expression of a call.
	 * @param attributes the method's settings, with a fingerprint expression
	 * @param invocation the call
	 * @return what identifies the call, possibly {@code null}
	 */
	public @Nullable Object fingerprint(IdempotentAttributes attributes, MethodInvocation invocation) {
		return attributes.fingerprintExpression().getValue(context(attributes, invocation));
	}

	/**
	 * Evaluate the {@code @IdempotentSequence} expressions of a call.
	 * @param attributes the method's settings
	 * @param invocation the call
	 * @return the call's scope and number, or {@code null} if the method has no
	 * {@code @IdempotentSequence}
	 * @throws InvalidSequenceException if the call yields no valid scope or number
	 */
	public @Nullable SequenceNumber sequence(IdempotentAttributes attributes, MethodInvocation invocation) {
		IdempotentAttributes.Sequence sequence = attributes.sequence();
		if (sequence == null) {
			return null;
		}
		EvaluationContext context = context(attributes, invocation);
		return SequenceNumber.of(sequence.scope().getValue(context), sequence.number().getValue(context));
	}

	private EvaluationContext context(IdempotentAttributes attributes, MethodInvocation invocation) {
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(invocation.getThis(),
				attributes.method(), invocation.getArguments(), this.parameterNames);
		if (this.beanFactory != null) {
			context.setBeanResolver(new BeanFactoryResolver(this.beanFactory));
		}
		return context;
	}

}
