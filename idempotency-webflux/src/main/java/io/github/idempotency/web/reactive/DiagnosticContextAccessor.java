package io.github.idempotency.web.reactive;

import java.util.Map;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

import io.github.idempotency.engine.IdempotentInvocation;

/**
 * Carries the MDC entries of a claimed call, from the Reactor context of its publisher to the
 * threads its work runs on, when Reactor's automatic context propagation is on.
 */
final class DiagnosticContextAccessor implements ThreadLocalAccessor<Map<String, String>> {

	/**
	 * The key of the entries in the Reactor context.
	 */
	static final String KEY = "io.github.idempotency.mdc";

	/**
	 * Register an accessor with Micrometer's global registry, which Reactor reads, in place of any
	 * registered before.
	 * @return the accessor
	 */
	static DiagnosticContextAccessor register() {
		DiagnosticContextAccessor accessor = new DiagnosticContextAccessor();
		ContextRegistry.getInstance().registerThreadLocalAccessor(accessor);
		return accessor;
	}

	@Override
	public Object key() {
		return KEY;
	}

	@Override
	public @Nullable Map<String, String> getValue() {
		Map<String, String> entries = IdempotentInvocation.diagnosticContext();
		return entries.isEmpty() ? null : entries;
	}

	@Override
	public void setValue(Map<String, String> entries) {
		IdempotentInvocation.clearDiagnosticContext();
		entries.forEach(MDC::put);
	}

	@Override
	public void reset() {
		IdempotentInvocation.clearDiagnosticContext();
	}

}
