package io.github.idempotency.internal.method;

import org.aopalliance.aop.Advice;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;

import io.github.idempotency.annotation.Idempotent;

/**
 * Proxies beans with {@link Idempotent @Idempotent} methods. The advice goes in front of every
 * other advisor, so that a claim is made outside any {@code @Transactional} boundary of the same
 * method.
 */
public class IdempotentAnnotationBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

	public IdempotentAnnotationBeanPostProcessor(Advice advice) {
		setBeforeExistingAdvisors(true);
		setProxyTargetClass(true);
		this.advisor = new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, Idempotent.class, true), advice);
	}

}
