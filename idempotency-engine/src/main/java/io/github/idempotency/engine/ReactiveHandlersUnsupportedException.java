package io.github.idempotency.engine;

import java.util.List;

/**
 * Thrown at the start of a reactive web application whose {@code @Idempotent} methods no entry
 * point can guard yet.
 */
class ReactiveHandlersUnsupportedException extends IllegalStateException {

	private final List<String> methods;

	ReactiveHandlersUnsupportedException(List<String> methods) {
		super("@Idempotent cannot guard these methods of a reactive web application: " + methods);
		this.methods = methods;
	}

	List<String> methods() {
		return this.methods;
	}

}
