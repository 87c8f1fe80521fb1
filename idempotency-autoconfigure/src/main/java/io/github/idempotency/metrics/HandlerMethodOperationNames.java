package io.github.idempotency.metrics;

import java.util.Set;
import java.util.TreeSet;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import io.github.idempotency.aop.IdempotentAttributeSource;
import io.github.idempotency.aop.IdempotentAttributes;

/**
 * Names of the {@code @Idempotent} Spring MVC handler methods: the explicit operation, else the
 * HTTP method and route template of every mapping, such as {@code POST /payments}.
 */
public class HandlerMethodOperationNames implements IdempotentOperationNames {

	private final ObjectProvider<RequestMappingHandlerMapping> handlerMappings;

	private final IdempotentAttributeSource attributeSource;

	public HandlerMethodOperationNames(ObjectProvider<RequestMappingHandlerMapping> handlerMappings,
			IdempotentAttributeSource attributeSource) {
		this.handlerMappings = handlerMappings;
		this.attributeSource = attributeSource;
	}

	@Override
	public Set<String> operationNames() {
		Set<String> names = new TreeSet<>();
		this.handlerMappings.orderedStream()
			.forEach((mapping) -> mapping.getHandlerMethods().forEach((info, handlerMethod) -> {
				IdempotentAttributes attributes = this.attributeSource.find(handlerMethod.getMethod(),
						handlerMethod.getBeanType());
				if (attributes == null) {
					return;
				}
				if (!attributes.operation().isEmpty()) {
					names.add(attributes.operation());
					return;
				}
				for (RequestMethod method : info.getMethodsCondition().getMethods()) {
					info.getPatternValues().forEach((pattern) -> names.add(method.name() + " " + pattern));
				}
			}));
		return names;
	}

}
