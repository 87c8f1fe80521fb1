package io.github.idempotency.jdbc;

import java.util.Set;

import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDatabaseInitializerDetector;

/**
 * Tells Spring Boot that {@link IdempotencySchemaInitializer} initializes the database, so that
 * every bean that depends on database initialization, such as the store and the JPA entity
 * manager factory, waits for it, and that it runs after the application's own Flyway or
 * Liquibase migrations, whose detectors come first.
 */
class IdempotencySchemaInitializerDetector extends AbstractBeansOfTypeDatabaseInitializerDetector {

	private static final int ORDER = 100;

	@Override
	protected Set<Class<?>> getDatabaseInitializerBeanTypes() {
		return Set.of(IdempotencySchemaInitializer.class);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
