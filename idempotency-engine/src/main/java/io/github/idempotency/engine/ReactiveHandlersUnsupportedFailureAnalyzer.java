package io.github.idempotency.engine;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains why {@code @Idempotent} on reactive methods and Spring WebFlux handlers is refused, and
 * the ways out until the reactive entry point exists.
 */
class ReactiveHandlersUnsupportedFailureAnalyzer extends AbstractFailureAnalyzer<ReactiveHandlersUnsupportedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ReactiveHandlersUnsupportedException cause) {
		StringBuilder description = new StringBuilder(cause.reactiveWebApplication() ? """
				This is a reactive (Spring WebFlux) application without the starter's WebFlux module \
				(idempotency-webflux): a WebFlux handler would not read the Idempotency-Key header (every request \
				would be refused), and a method returning a Mono, a Flux or suspending does its work after the \
				guard has ended (its key would be released and its result never stored). These @Idempotent \
				methods would not be guarded:""" : """
				These @Idempotent methods return a reactive type (a Mono, a Flux) or suspend: their work runs after \
				the guard around the call has ended, so their key would be released and their result never \
				stored, and the idempotency starter has no reactive entry point for bean methods yet. They would \
				not be guarded:""");
		cause.methods().forEach((method) -> description.append("\n    - ").append(method));
		String action = cause.reactiveWebApplication()
				? "Add io.github.idempotency:idempotency-webflux, which guards @Idempotent WebFlux handlers; or "
						+ "set idempotency.enabled=false to run them unguarded on purpose."
				: """
						Move @Idempotent to the blocking service method the reactive code calls, with a key \
						expression (@Idempotent(key = "...")), and call it off the event loop \
						(Mono.fromCallable(...).subscribeOn(Schedulers.boundedElastic())); or set \
						idempotency.enabled=false to run them unguarded on purpose.""";
		return new FailureAnalysis(description.toString(), action, cause);
	}

}
