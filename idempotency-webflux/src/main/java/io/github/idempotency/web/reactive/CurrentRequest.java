package io.github.idempotency.web.reactive;

import org.jspecify.annotations.Nullable;
import org.springframework.web.server.ServerWebExchange;

/**
 * The reactive request whose call the current store thread claims, and its principal, for the
 * thread-bound extension points the engine calls meanwhile, such as the tenant resolver.
 *
 * @param exchange the exchange
 * @param principal the name of the authenticated principal, or {@code null}
 */
record CurrentRequest(ServerWebExchange exchange, @Nullable String principal) {

	private static final ThreadLocal<CurrentRequest> current = new ThreadLocal<>();

	static @Nullable CurrentRequest get() {
		return current.get();
	}

	/**
	 * Bind this request to the current thread until the returned scope closes.
	 * @return the scope
	 */
	Scope open() {
		current.set(this);
		return current::remove;
	}

	/**
	 * The binding of a request to a thread.
	 */
	interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
