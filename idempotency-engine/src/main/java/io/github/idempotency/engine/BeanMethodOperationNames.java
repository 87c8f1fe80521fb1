package io.github.idempotency.engine;

import java.lang.reflect.Method;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.stereotype.Controller;
import org.springframework.util.ClassUtils;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;

/**
 * Names of the {@code @Idempotent} methods of the application's beans as called outside Spring MVC:
 * the explicit operation, else {@code SimpleClassName.method}.
 */
class BeanMethodOperationNames implements IdempotentOperationNames {

	private final ConfigurableListableBeanFactory beanFactory;

	private final IdempotentAttributeSource attributeSource;

	private final BooleanSupplier skipControllers;

	/**
	 * Create an instance.
	 * @param beanFactory the bean factory to scan
	 * @param attributeSource the source the advice reads the annotations from
	 * @param skipControllers whether to leave out controllers, whose methods a web adapter names
	 */
	public BeanMethodOperationNames(ConfigurableListableBeanFactory beanFactory,
			IdempotentAttributeSource attributeSource, BooleanSupplier skipControllers) {
		this.beanFactory = beanFactory;
		this.attributeSource = attributeSource;
		this.skipControllers = skipControllers;
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

	private void forEachOperation(BiConsumer<String, IdempotentAttributes> action) {
		for (String beanName : this.beanFactory.getBeanDefinitionNames()) {
			Class<?> type = userType(beanName);
			if (type == null || !AnnotationUtils.isCandidateClass(type, Idempotent.class)
					|| (this.skipControllers.getAsBoolean() && AnnotatedElementUtils.hasAnnotation(type, Controller.class))) {
				continue;
			}
			Map<Method, IdempotentAttributes> methods = MethodIntrospector.selectMethods(type,
					(MethodIntrospector.MetadataLookup<IdempotentAttributes>) (method) -> AnnotatedElementUtils
						.hasAnnotation(method, Idempotent.class) ? this.attributeSource.find(method, type) : null);
			methods.values().forEach((attributes) -> action.accept(attributes.operationOutsideWeb(), attributes));
		}
	}

	private Class<?> userType(String beanName) {
		return userType(this.beanFactory, beanName);
	}

	/**
	 * Return the class of a bean as its author wrote it, behind any proxy, without creating it.
	 * @param beanFactory the bean factory
	 * @param beanName the bean's name
	 * @return its class, or {@code null} if it cannot be told
	 */
	static Class<?> userType(ConfigurableListableBeanFactory beanFactory, String beanName) {
		if (beanFactory.containsSingleton(beanName)) {
			return AopProxyUtils.ultimateTargetClass(beanFactory.getSingleton(beanName));
		}
		Class<?> type = beanFactory.getType(beanName, false);
		return (type != null) ? ClassUtils.getUserClass(type) : null;
	}

}
