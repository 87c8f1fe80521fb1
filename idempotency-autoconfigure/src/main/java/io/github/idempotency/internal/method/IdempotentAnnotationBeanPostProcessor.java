package io.github.idempotency.internal.method;

import org.aopalliance.aop.Advice;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.core.Ordered;

import io.github.idempotency.annotation.Idempotent;

/**
 * Proxies beans with {@link Idempotent @Idempotent} methods. The advice goes in front of every
 * other advisor, so that a claim is made outside any {@code @Transactional} boundary of the same
 * method. The proxy is made before the post-processors of listener annotations, which run last,
 * register the bean's methods, so that a {@code @RabbitListener}, {@code @KafkaListener} or
 * {@code @JmsListener} method that is {@code @Idempotent} itself is called through it.
 */
public class IdempotentAnnotationBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

	public IdempotentAnnotationBeanPostProcessor(Advice advice) {
		setBeforeExistingAdvisors(true);
		setProxyTargetClass(true);
		setOrder(Ordered.LOWEST_PRECEDENCE - 1);
		this.advisor = new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, Idempotent.class, true), advice);
	}

}
