package io.github.idempotency.web.reactive;

import java.util.Set;

/**
 * Thrown at start-up when {@code @Idempotent} WebFlux handlers cannot be guarded as declared.
 */
final class WebFluxHandlersUnsupportedException extends RuntimeException {

	private final Set<String> notReactive;

	private final Set<String> atomic;

	WebFluxHandlersUnsupportedException(Set<String> notReactive, Set<String> atomic) {
		super("@Idempotent WebFlux handlers that cannot be guarded: not reactive " + notReactive + ", ATOMIC "
				+ atomic);
		this.notReactive = Set.copyOf(notReactive);
		this.atomic = Set.copyOf(atomic);
	}

	Set<String> notReactive() {
		return this.notReactive;
	}

	Set<String> atomic() {
		return this.atomic;
	}

}
