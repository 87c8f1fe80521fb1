package io.github.idempotency.engine;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.stereotype.Controller;
import org.springframework.util.ClassUtils;

import io.github.idempotency.annotation.Idempotent;

/**
 * Refuses at start-up {@code @Idempotent} methods that no entry point can guard yet: bean methods
 * returning a reactive type or suspending, whose work runs after the advice has returned, and, in
 * a reactive web application without the WebFlux entry point, the handlers of its controllers.
 * (Spring MVC and WebFlux handlers are their web entry point's.)
 */
class ReactiveHandlersCheck implements SmartInitializingSingleton {

	private static final List<String> REACTIVE_TYPES = List.of("org.reactivestreams.Publisher",
			"java.util.concurrent.Flow$Publisher");

	private static final String CONTINUATION = "kotlin.coroutines.Continuation";

	private final ConfigurableListableBeanFactory beanFactory;

	private final BooleanSupplier controllersUnguarded;

	/**
	 * Create the check.
	 * @param beanFactory the bean factory
	 * @param controllersUnguarded whether controllers have no entry point: a reactive web
	 * application without the WebFlux module
	 */
	ReactiveHandlersCheck(ConfigurableListableBeanFactory beanFactory, BooleanSupplier controllersUnguarded) {
		this.beanFactory = beanFactory;
		this.controllersUnguarded = controllersUnguarded;
	}

	@Override
	public void afterSingletonsInstantiated() {
		boolean reactiveWebApplication = this.controllersUnguarded.getAsBoolean();
		Set<String> refused = new TreeSet<>();
		for (String beanName : this.beanFactory.getBeanDefinitionNames()) {
			Class<?> type = BeanMethodOperationNames.userType(this.beanFactory, beanName);
			if (type == null || !AnnotationUtils.isCandidateClass(type, Idempotent.class)) {
				continue;
			}
			boolean controller = AnnotatedElementUtils.hasAnnotation(type, Controller.class);
			if (controller && !reactiveWebApplication) {
				continue;
			}
			MethodIntrospector
				.selectMethods(type,
						(MethodIntrospector.MetadataLookup<Boolean>) (method) -> AnnotatedElementUtils
							.hasAnnotation(method, Idempotent.class) && (controller || reactive(method)) ? true : null)
				.keySet()
				.forEach((method) -> refused.add(type.getName() + "." + method.getName()));
		}
		if (!refused.isEmpty()) {
			throw new ReactiveHandlersUnsupportedException(List.copyOf(refused), reactiveWebApplication);
		}
	}

	private static boolean reactive(Method method) {
		Class<?>[] parameters = method.getParameterTypes();
		if (parameters.length > 0 && parameters[parameters.length - 1].getName().equals(CONTINUATION)) {
			return true;
		}
		for (String reactiveType : REACTIVE_TYPES) {
			if (isAssignable(reactiveType, method.getReturnType())) {
				return true;
			}
		}
		return false;
	}

	private static boolean isAssignable(String typeName, Class<?> type) {
		ClassLoader loader = type.getClassLoader();
		if (!ClassUtils.isPresent(typeName, loader)) {
			return false;
		}
		return ClassUtils.resolveClassName(typeName, loader).isAssignableFrom(type);
	}

}
