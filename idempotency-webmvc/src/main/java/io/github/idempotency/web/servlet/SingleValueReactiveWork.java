package io.github.idempotency.web.servlet;

import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;
import org.springframework.core.ReactiveAdapter;
import reactor.core.publisher.Mono;

/**
 * Follows a single-value reactive result (a {@code Mono}, or what Spring adapts as one) to its
 * end, whether or not Spring MVC is still subscribed: the handler's publisher is subscribed once,
 * by a cached {@code Mono} that both Spring MVC and the follower read, so that a request that
 * times out and cancels its subscription stops neither the work nor the sight of its end. Loaded
 * only where Reactor is on the class path ({@link AsyncReturnTypes#followableReactiveAdapter}).
 */
final class SingleValueReactiveWork {

	private SingleValueReactiveWork() {
	}

	/**
	 * Subscribe to the result once, and return what Spring MVC answers from in its place.
	 * @param result the handler's result
	 * @param adapter the adapter of its reactive type
	 * @param whenEnded called once with the value (or {@code null}) or the failure
	 * @return a value of the handler's reactive type that replays the one subscription's outcome
	 */
	static Object follow(Object result, ReactiveAdapter adapter,
			BiConsumer<@Nullable Object, @Nullable Throwable> whenEnded) {
		Mono<Object> once = Mono.from(adapter.toPublisher(result)).cache();
		once.subscribe((value) -> whenEnded.accept(value, null), (failure) -> whenEnded.accept(null, failure),
				() -> whenEnded.accept(null, null));
		return adapter.fromPublisher(once);
	}

}
