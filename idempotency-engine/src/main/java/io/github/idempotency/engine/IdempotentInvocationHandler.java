package io.github.idempotency.engine;

import org.aopalliance.intercept.MethodInvocation;

/**
 * Runs one kind of {@code @Idempotent} call, such as a Spring MVC handler method.
 */
public interface IdempotentInvocationHandler {

	/**
	 * Return whether this handler runs the given call.
	 * @param invocation the call
	 * @param attributes the method's settings
	 * @return whether {@link #invoke} applies
	 */
	boolean supports(MethodInvocation invocation, IdempotentAttributes attributes);

	/**
	 * Run the call under idempotency protection.
	 * @param invocation the call
	 * @param attributes the method's settings
	 * @return the call's result, or a replay of it
	 * @throws Throwable what the call threw, or an {@code IdempotencyException}
	 */
	Object invoke(MethodInvocation invocation, IdempotentAttributes attributes) throws Throwable;

}
