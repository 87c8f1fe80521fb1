package io.github.idempotency.engine;

import java.lang.reflect.Method;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.idempotency.annotation.Idempotent;

/**
 * Registers binding hints for the declared return and parameter types of the
 * {@link Idempotent @Idempotent} methods of each bean: a return value is stored as JSON and read
 * back as its declared type, and the arguments are written as JSON for the fingerprint. A value
 * that only reads back as its runtime type, a subtype of the declared one, is stored under that
 * type's name and needs a hint of the application's own.
 */
final class IdempotentMethodsAotProcessor implements BeanRegistrationAotProcessor {

	private static final BindingReflectionHintsRegistrar bindingHints = new BindingReflectionHintsRegistrar();

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
		Set<Method> methods = MethodIntrospector.selectMethods(beanClass,
				(ReflectionUtils.MethodFilter) (method) -> AnnotatedElementUtils.hasAnnotation(method, Idempotent.class));
		if (methods.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> {
			ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
			for (Method method : methods) {
				bindingHints.registerReflectionHints(reflection, method.getGenericReturnType());
				bindingHints.registerReflectionHints(reflection, method.getGenericParameterTypes());
			}
		};
	}

}
