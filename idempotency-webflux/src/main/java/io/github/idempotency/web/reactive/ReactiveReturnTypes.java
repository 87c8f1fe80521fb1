package io.github.idempotency.web.reactive;

import java.lang.reflect.Method;

import org.reactivestreams.Publisher;
import org.springframework.core.KotlinDetector;

/**
 * Which handler methods the reactive entry point can follow: those returning a {@code Mono} or
 * a {@code Flux}, and Kotlin suspending functions, which Spring calls as a {@code Mono}.
 */
final class ReactiveReturnTypes {

	private ReactiveReturnTypes() {
	}

	static boolean isReactive(Method method) {
		return Publisher.class.isAssignableFrom(method.getReturnType()) || KotlinDetector.isSuspendingFunction(method);
	}

}
