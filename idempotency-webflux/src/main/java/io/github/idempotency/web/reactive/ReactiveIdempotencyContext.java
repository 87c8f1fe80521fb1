package io.github.idempotency.web.reactive;

import reactor.core.publisher.Mono;

import io.github.idempotency.IdempotencyContext;

/**
 * The {@link IdempotencyContext} of the claimed call a reactive handler's publisher runs for,
 * read from the Reactor context (Kotlin coroutines read it with {@code awaitSingleOrNull()}).
 */
public final class ReactiveIdempotencyContext {

	private ReactiveIdempotencyContext() {
	}

	/**
	 * Return the context of the claimed call the subscriber runs for.
	 * @return the context, or empty outside a claimed call
	 */
	public static Mono<IdempotencyContext> current() {
		return Mono.deferContextual((context) -> Mono.justOrEmpty(context.getOrEmpty(IdempotencyContext.class)));
	}

	/**
	 * Return the context of the claimed call the subscriber runs for, or fail.
	 * @return the context, or an {@link IllegalStateException} outside a claimed call
	 */
	public static Mono<IdempotencyContext> require() {
		return current().switchIfEmpty(Mono.error(() -> new IllegalStateException(
				"No idempotent call is claimed for this subscriber: it does not run inside an @Idempotent handler's "
						+ "publisher")));
	}

}
