package io.github.idempotency.metrics;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.stereotype.Controller;
import org.springframework.util.ClassUtils;

import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.aop.IdempotentAttributeSource;
import io.github.idempotency.aop.IdempotentAttributes;

/**
 * Names of the {@code @Idempotent} methods of the application's beans as called outside Spring MVC:
 * the explicit operation, else {@code SimpleClassName.method}.
 */
public class BeanMethodOperationNames implements IdempotentOperationNames {

	private final ConfigurableListableBeanFactory beanFactory;

	private final IdempotentAttributeSource attributeSource;

	private final boolean skipControllers;

	/**
	 * Create an instance.
	 * @param beanFactory the bean factory to scan
	 * @param attributeSource the source the advice reads the annotations from
	 * @param skipControllers whether to leave out controllers, whose methods Spring MVC names
	 */
	public BeanMethodOperationNames(ConfigurableListableBeanFactory beanFactory,
			IdempotentAttributeSource attributeSource, boolean skipControllers) {
		this.beanFactory = beanFactory;
		this.attributeSource = attributeSource;
		this.skipControllers = skipControllers;
	}

	@Override
	public Set<String> operationNames() {
		Set<String> names = new TreeSet<>();
		for (String beanName : this.beanFactory.getBeanDefinitionNames()) {
			Class<?> type = userType(beanName);
			if (type == null || !AnnotationUtils.isCandidateClass(type, Idempotent.class)
					|| (this.skipControllers && AnnotatedElementUtils.hasAnnotation(type, Controller.class))) {
				continue;
			}
			Map<Method, IdempotentAttributes> methods = MethodIntrospector.selectMethods(type,
					(MethodIntrospector.MetadataLookup<IdempotentAttributes>) (method) -> AnnotatedElementUtils
						.hasAnnotation(method, Idempotent.class) ? this.attributeSource.find(method, type) : null);
			methods.values().forEach((attributes) -> names.add(attributes.operationOutsideWeb()));
		}
		return names;
	}

	private Class<?> userType(String beanName) {
		if (this.beanFactory.containsSingleton(beanName)) {
			return AopProxyUtils.ultimateTargetClass(this.beanFactory.getSingleton(beanName));
		}
		Class<?> type = this.beanFactory.getType(beanName, false);
		return (type != null) ? ClassUtils.getUserClass(type) : null;
	}

}
