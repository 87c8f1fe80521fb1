package io.github.idempotency.web.servlet;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.engine.IdempotentAttributeSource;
import io.github.idempotency.engine.IdempotentAttributes;
import io.github.idempotency.engine.IdempotentOperationNames;

/**
 * Names of the {@code @Idempotent} Spring MVC handler methods: the explicit operation, else the
 * HTTP method and route template of every mapping, such as {@code POST /payments}.
 */
class HandlerMethodOperationNames implements IdempotentOperationNames {

	private final ObjectProvider<RequestMappingHandlerMapping> handlerMappings;

	private final IdempotentAttributeSource attributeSource;

	public HandlerMethodOperationNames(ObjectProvider<RequestMappingHandlerMapping> handlerMappings,
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
		forEachOperation((name, attributes) -> IdempotentOperationNames.add(operations, name, attributes));
		return operations;
	}

	@Override
	public Set<String> sequencedOperations() {
		Set<String> operations = new TreeSet<>();
		forEachOperation((name, attributes) -> {
			if (attributes.sequence() != null) {
				operations.add(name);
			}
		});
		return operations;
	}

	/**
	 * Return the operation names of one handler method, one per HTTP method and route of its
	 * mappings unless its annotation names the operation.
	 * @param handler the handler method
	 * @return the names, empty if it is not {@code @Idempotent}
	 */
	Set<String> operationNamesOf(HandlerMethod handler) {
		Set<String> names = new TreeSet<>();
		forEachOperation((name, attributes, handlerMethod) -> {
			if (handlerMethod.getMethod().equals(handler.getMethod())) {
				names.add(name);
			}
		});
		return names;
	}

	private void forEachOperation(BiConsumer<String, IdempotentAttributes> action) {
		forEachOperation((name, attributes, handlerMethod) -> action.accept(name, attributes));
	}

	private void forEachOperation(OperationAction action) {
		this.handlerMappings.orderedStream()
			.forEach((mapping) -> mapping.getHandlerMethods().forEach((info, handlerMethod) -> {
				IdempotentAttributes attributes = this.attributeSource.find(handlerMethod.getMethod(),
						handlerMethod.getBeanType());
				if (attributes == null) {
					return;
				}
				if (!attributes.operation().isEmpty()) {
					action.accept(attributes.operation(), attributes, handlerMethod);
					return;
				}
				for (RequestMethod method : info.getMethodsCondition().getMethods()) {
					info.getPatternValues()
						.forEach((pattern) -> action.accept(method.name() + " " + pattern, attributes, handlerMethod));
				}
			}));
	}

	@FunctionalInterface
	private interface OperationAction {

		void accept(String name, IdempotentAttributes attributes, HandlerMethod handlerMethod);

	}

}
