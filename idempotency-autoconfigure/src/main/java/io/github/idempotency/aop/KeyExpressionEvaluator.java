package io.github.idempotency.aop;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;

/**
 * Evaluates {@code @Idempotent(key = ...)} expressions against the arguments of a call:
 * {@code #name} or {@code #p0} for an argument, {@code @bean} for a bean.
 */
public class KeyExpressionEvaluator {

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private final BeanFactory beanFactory;

	public KeyExpressionEvaluator(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Evaluate the key expression of a call.
	 * @param attributes the method's settings, with a key expression
	 * @param invocation the call
	 * @return the derived value, or {@code null} if the expression yields {@code null} or an empty
	 * string
	 */
	public String evaluate(IdempotentAttributes attributes, MethodInvocation invocation) {
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(invocation.getThis(),
				attributes.method(), invocation.getArguments(), this.parameterNames);
		if (this.beanFactory != null) {
			context.setBeanResolver(new BeanFactoryResolver(this.beanFactory));
		}
		Object value = attributes.keyExpression().getValue(context);
		String key = (value != null) ? value.toString() : null;
		return (key == null || key.isEmpty()) ? null : key;
	}

}
