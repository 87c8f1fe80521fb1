package io.github.idempotency.store.schema;

import java.util.Collections;
import java.util.Set;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDatabaseInitializerDetector;
import org.springframework.util.ClassUtils;

/**
 * Makes every bean that depends on database initialization, such as the JPA entity manager
 * factory, wait for {@link IdempotencySchemaInitializer}, which itself runs after the
 * application's own Flyway or Liquibase migrations.
 */
class IdempotencySchemaInitializerDetector extends AbstractBeansOfTypeDatabaseInitializerDetector {

	private static final int ORDER = 100;

	@Override
	public Set<String> detect(ConfigurableListableBeanFactory beanFactory) {
		if (!ClassUtils.isPresent("org.flywaydb.core.Flyway", beanFactory.getBeanClassLoader())) {
			return Collections.emptySet();
		}
		return super.detect(beanFactory);
	}

	@Override
	protected Set<Class<?>> getDatabaseInitializerBeanTypes() {
		return Set.of(IdempotencySchemaInitializer.class);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
