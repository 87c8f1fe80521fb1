package io.github.idempotency.kafka;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.kafka.annotation.KafkaHandler;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.Message;
import org.springframework.util.ClassUtils;

import io.github.idempotency.annotation.Idempotent;

/**
 * Refuses at start-up an {@code @Idempotent} Kafka listener that could never find its key: one
 * with no key expression and no parameter that carries the record's {@code Idempotency-Key}
 * header, whose every record would otherwise be refused at run time.
 */
class KafkaListenerKeysCheck implements SmartInitializingSingleton {

	private final ConfigurableListableBeanFactory beanFactory;

	KafkaListenerKeysCheck(ConfigurableListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		Set<String> keyless = new TreeSet<>();
		for (String beanName : this.beanFactory.getBeanDefinitionNames()) {
			Class<?> type = this.beanFactory.getType(beanName, false);
			if (type == null || !AnnotationUtils.isCandidateClass(type, Idempotent.class)) {
				continue;
			}
			Class<?> userType = ClassUtils.getUserClass(type);
			boolean listenerClass = AnnotatedElementUtils.hasAnnotation(userType, KafkaListener.class);
			MethodIntrospector
				.selectMethods(userType,
						(MethodIntrospector.MetadataLookup<Boolean>) (method) -> keyless(method, listenerClass) ? true
								: null)
				.keySet()
				.forEach((method) -> keyless.add(userType.getName() + "." + method.getName()));
		}
		if (!keyless.isEmpty()) {
			throw new KafkaListenerKeyMissingException(List.copyOf(keyless));
		}
	}

	private static boolean keyless(Method method, boolean listenerClass) {
		Idempotent idempotent = AnnotatedElementUtils.findMergedAnnotation(method, Idempotent.class);
		boolean listener = AnnotatedElementUtils.hasAnnotation(method, KafkaListener.class)
				|| (listenerClass && AnnotatedElementUtils.hasAnnotation(method, KafkaHandler.class));
		return idempotent != null && listener && idempotent.key().isEmpty() && idempotent.required()
				&& !carriesKeyHeader(method);
	}

	private static boolean carriesKeyHeader(Method method) {
		if (KafkaMessageArguments.keyParameter(method) >= 0) {
			return true;
		}
		for (Class<?> type : method.getParameterTypes()) {
			if (ConsumerRecord.class.isAssignableFrom(type) || Message.class.isAssignableFrom(type)) {
				return true;
			}
		}
		return false;
	}

}
