package io.github.idempotency.engine;

import java.util.List;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;

/**
 * The advice around {@code @Idempotent} methods: hands each call to the first
 * {@link IdempotentInvocationHandler} that supports it.
 */
class IdempotentMethodInterceptor implements MethodInterceptor {

	private final IdempotentAttributeSource attributeSource;

	private final List<IdempotentInvocationHandler> handlers;

	public IdempotentMethodInterceptor(IdempotentAttributeSource attributeSource,
			List<IdempotentInvocationHandler> handlers) {
		this.attributeSource = attributeSource;
		this.handlers = List.copyOf(handlers);
	}

	@Override
	public Object invoke(MethodInvocation invocation) throws Throwable {
		Class<?> targetClass = (invocation.getThis() != null) ? AopUtils.getTargetClass(invocation.getThis()) : null;
		IdempotentAttributes attributes = this.attributeSource.find(invocation.getMethod(), targetClass);
		if (attributes == null) {
			return invocation.proceed();
		}
		for (IdempotentInvocationHandler handler : this.handlers) {
			if (handler.supports(invocation, attributes)) {
				return handler.invoke(invocation, attributes);
			}
		}
		throw new IllegalStateException("No IdempotentInvocationHandler supports the call of " + attributes.method());
	}

}
