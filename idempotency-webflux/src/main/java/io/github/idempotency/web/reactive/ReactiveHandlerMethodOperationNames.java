package io.github.idempotency.web.reactive;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.engine.IdempotentAttributeSource;
import io.github.idempotency.engine.IdempotentAttributes;
import io.github.idempotency.engine.IdempotentOperationNames;

/**
 * Names of the {@code @Idempotent} Spring WebFlux handler methods: the explicit operation, else the
 * HTTP method and route template of every mapping, such as {@code POST /payments}.
 */
final class ReactiveHandlerMethodOperationNames implements IdempotentOperationNames {

	private final ObjectProvider<RequestMappingHandlerMapping> handlerMappings;

	private final IdempotentAttributeSource attributeSource;

	ReactiveHandlerMethodOperationNames(ObjectProvider<RequestMappingHandlerMapping> handlerMappings,
			IdempotentAttributeSource attributeSource) {
		this.handlerMappings = handlerMappings;
		this.attributeSource = attributeSource;
	}

	@Override
	public boolean namesControllers() {
		return true;
	}

	@Override
	public Map<String, Set<IdempotencyMode>> annotatedModes() {
		Map<String, Set<IdempotencyMode>> operations = new TreeMap<>();
		forEachOperation((name, handler) -> IdempotentOperationNames.add(operations, name, handler.attributes()));
		return operations;
	}

	@Override
	public Set<String> sequencedOperations() {
		Set<String> operations = new TreeSet<>();
		forEachOperation((name, handler) -> {
			if (handler.attributes().sequence() != null) {
				operations.add(name);
			}
		});
		return operations;
	}

	/**
	 * Call the given action with each operation name of each {@code @Idempotent} handler method.
	 * @param action the action
	 */
	void forEachOperation(BiConsumer<String, Handler> action) {
		this.handlerMappings.orderedStream()
			.forEach((mapping) -> mapping.getHandlerMethods().forEach((info, handlerMethod) -> {
				IdempotentAttributes attributes = this.attributeSource.find(handlerMethod.getMethod(),
						handlerMethod.getBeanType());
				if (attributes == null) {
					return;
				}
				Handler handler = new Handler(handlerMethod, attributes);
				if (!attributes.operation().isEmpty()) {
					action.accept(attributes.operation(), handler);
					return;
				}
				for (RequestMethod method : info.getMethodsCondition().getMethods()) {
					for (PathPattern pattern : info.getPatternsCondition().getPatterns()) {
						action.accept(method.name() + " " + pattern.getPatternString(), handler);
					}
				}
			}));
	}

	/**
	 * An {@code @Idempotent} handler method and its settings.
	 *
	 * @param method the handler method
	 * @param attributes its settings
	 */
	record Handler(HandlerMethod method, IdempotentAttributes attributes) {
	}

}
