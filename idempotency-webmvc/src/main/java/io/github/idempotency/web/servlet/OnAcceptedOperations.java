package io.github.idempotency.web.servlet;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.github.idempotency.engine.IdempotencyProperties;

/**
 * Matches when an operation sets {@code idempotency.operations.<name>.accept-after}: only then is
 * the status resource of accepted requests served.
 */
final class OnAcceptedOperations extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Map<String, IdempotencyProperties.Operation> operations = Binder.get(context.getEnvironment())
			.bind("idempotency.operations", Bindable.mapOf(String.class, IdempotencyProperties.Operation.class))
			.orElse(Map.of());
		return operations.values().stream().anyMatch((operation) -> operation.getAcceptAfter() != null)
				? ConditionOutcome.match("an operation sets accept-after")
				: ConditionOutcome.noMatch("no operation sets accept-after");
	}

}
