package io.github.idempotency.engine;

import java.util.List;

/**
 * Thrown at start-up when {@code @Idempotent} methods are reactive ones that no entry point can
 * guard yet.
 */
class ReactiveHandlersUnsupportedException extends IllegalStateException {

	private final List<String> methods;

	private final boolean reactiveWebApplication;

	ReactiveHandlersUnsupportedException(List<String> methods, boolean reactiveWebApplication) {
		super("@Idempotent cannot guard these reactive methods: " + methods);
		this.methods = methods;
		this.reactiveWebApplication = reactiveWebApplication;
	}

	boolean reactiveWebApplication() {
		return this.reactiveWebApplication;
	}

	List<String> methods() {
		return this.methods;
	}

}
