package io.github.idempotency.web.reactive;

import java.util.TreeSet;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains which {@code @Idempotent} WebFlux handlers cannot be guarded as declared, and what to
 * change.
 */
final class WebFluxHandlersUnsupportedFailureAnalyzer
		extends AbstractFailureAnalyzer<WebFluxHandlersUnsupportedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WebFluxHandlersUnsupportedException cause) {
		StringBuilder description = new StringBuilder();
		StringBuilder action = new StringBuilder();
		if (!cause.notReactive().isEmpty()) {
			description.append("These @Idempotent WebFlux handlers return neither a Mono nor a Flux and do not "
					+ "suspend, so their work would run before their key is claimed:");
			new TreeSet<>(cause.notReactive()).forEach((method) -> description.append("\n    - ").append(method));
			action.append("Return Mono<ResponseEntity<T>>, Mono<T> or Flux<T> (or make the Kotlin handler a suspend "
					+ "fun), so that the work starts once the key is claimed.");
		}
		if (!cause.atomic().isEmpty()) {
			description.append(description.isEmpty() ? "" : "\n")
				.append("These @Idempotent WebFlux handlers run ATOMIC, which Spring WebFlux cannot do: their writes "
						+ "would not join the claim's transaction, which is a blocking JDBC one:");
			new TreeSet<>(cause.atomic()).forEach((method) -> description.append("\n    - ").append(method));
			action.append(action.isEmpty() ? "" : " ")
				.append("Run them LEASED (remove mode = ATOMIC, or set idempotency.operations.<operation>.mode=LEASED),"
						+ " with an idempotent downstream (forward the fencing token), or serve them from Spring MVC.");
		}
		return new FailureAnalysis(description.toString(), action.toString(), cause);
	}

}
