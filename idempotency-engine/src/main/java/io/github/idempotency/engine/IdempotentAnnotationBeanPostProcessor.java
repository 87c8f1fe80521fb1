package io.github.idempotency.engine;

import org.aopalliance.aop.Advice;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.core.Ordered;

import io.github.idempotency.annotation.Idempotent;

/**
 * Proxies beans with {@link Idempotent @Idempotent} methods. The advice goes inside the
 * advisors ordered before {@link #ADVICE_ORDER} (Spring Security's method authorization:
 * {@code @PreAuthorize}, {@code @Secured}, {@code @RolesAllowed}), so that a refused call claims
 * nothing, and in front of every other one, so that a claim is made outside any
 * {@code @Transactional} boundary of the same method. The proxy is made before the
 * post-processors of listener annotations, which run last, register the bean's methods, so that a
 * {@code @RabbitListener}, {@code @KafkaListener} or {@code @JmsListener} method that is
 * {@code @Idempotent} itself is called through it.
 */
class IdempotentAnnotationBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

	/**
	 * The order of the {@code @Idempotent} advice among a bean's advisors: after Spring Security's
	 * method interceptors (ordered 100 to 600), before those ordered later, {@code @Transactional}'s
	 * ({@link Ordered#LOWEST_PRECEDENCE} unless set) included.
	 */
	public static final int ADVICE_ORDER = 1000;

	public IdempotentAnnotationBeanPostProcessor(Advice advice) {
		setProxyTargetClass(true);
		setOrder(Ordered.LOWEST_PRECEDENCE - 1);
		DefaultPointcutAdvisor advisor = new DefaultPointcutAdvisor(
				new AnnotationMatchingPointcut(null, Idempotent.class, true), advice);
		advisor.setOrder(ADVICE_ORDER);
		this.advisor = advisor;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof Advised advised && !(bean instanceof AopInfrastructureBean) && !advised.isFrozen()
				&& isEligible(AopUtils.getTargetClass(bean))) {
			advised.addAdvisor(positionIn(advised), this.advisor);
			return bean;
		}
		return super.postProcessAfterInitialization(bean, beanName);
	}

	private static int positionIn(Advised advised) {
		Advisor[] advisors = advised.getAdvisors();
		int position = 0;
		while (position < advisors.length && orderOf(advisors[position]) < ADVICE_ORDER) {
			position++;
		}
		return position;
	}

	private static int orderOf(Advisor advisor) {
		return (advisor instanceof Ordered ordered) ? ordered.getOrder() : Ordered.LOWEST_PRECEDENCE;
	}

}
