package io.github.idempotency.autoconfigure;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jpa.autoconfigure.EntityManagerFactoryBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.ClassUtils;

import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.jdbc.DatabasePlatform;
import io.github.idempotency.store.jdbc.IdempotencySql;
import io.github.idempotency.store.jdbc.JdbcIdempotencyStore;
import io.github.idempotency.store.jpa.IdempotencyRecordEntity;
import io.github.idempotency.store.schema.IdempotencySchemaInitializer;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the JDBC idempotency store, its schema
 * migrations and its JPA entity, on the application's {@link DataSource}.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
		"org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnClass(JdbcTemplate.class)
@ConditionalOnSingleCandidate(DataSource.class)
@EnableConfigurationProperties(IdempotencyProperties.class)
public final class IdempotencyJdbcStoreAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(IdempotencyStore.class)
	JdbcIdempotencyStore idempotencyStore(DataSource dataSource,
			ObjectProvider<IdempotencySchemaInitializer> schemaInitializer) {
		schemaInitializer.ifAvailable((initializer) -> {
		});
		return new JdbcIdempotencyStore(new JdbcTemplate(dataSource),
				IdempotencySql.forPlatform(DatabasePlatform.of(dataSource)));
	}

	@Bean
	IdempotencySchemaCheck idempotencySchemaCheck(DataSource dataSource, ObjectProvider<IdempotencyStore> store,
			IdempotencyProperties properties) {
		boolean migrate = properties.getSchema().isMigrate()
				&& ClassUtils.isPresent("org.flywaydb.core.Flyway", IdempotencySchemaCheck.class.getClassLoader());
		return new IdempotencySchemaCheck(dataSource,
				() -> store.getIfAvailable() instanceof JdbcIdempotencyStore, migrate);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Flyway.class)
	@ConditionalOnBooleanProperty(name = "idempotency.schema.migrate", matchIfMissing = true)
	static class SchemaMigrationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		IdempotencySchemaInitializer idempotencySchemaInitializer(DataSource dataSource,
				IdempotencyProperties properties) {
			return new IdempotencySchemaInitializer(dataSource, DatabasePlatform.of(dataSource),
					properties.getSchema().getHistoryTable());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ EntityManagerFactoryBuilderCustomizer.class, jakarta.persistence.Entity.class })
	static class JpaEntityConfiguration {

		@Bean
		EntityManagerFactoryBuilderCustomizer idempotencyRecordEntityRegistrar() {
			return (builder) -> builder.addPersistenceUnitPostProcessors(
					(unit) -> unit.addManagedClassName(IdempotencyRecordEntity.class.getName()));
		}

	}

}
