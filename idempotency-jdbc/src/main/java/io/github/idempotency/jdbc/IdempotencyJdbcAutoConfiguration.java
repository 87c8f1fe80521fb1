package io.github.idempotency.jdbc;

import io.github.idempotency.jdbc.IdempotencyPurger.PurgeListener;

import io.github.idempotency.engine.IdempotencyProperties;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jpa.EntityManagerFactoryBuilder;
import org.springframework.boot.jpa.autoconfigure.EntityManagerFactoryBuilderCustomizer;
import org.springframework.boot.task.ThreadPoolTaskSchedulerBuilder;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.persistenceunit.PersistenceUnitPostProcessor;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.config.TaskSchedulerRouter;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.function.SingletonSupplier;

import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.IdempotencyStore;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the JDBC idempotency store on the
 * application's {@link DataSource}, or on one qualified {@link IdempotencyDataSource}: the store,
 * its schema and its check, its JPA entity when asked for, and, where the store is this one (not
 * an {@link IdempotencyStore} of the application's own), the scheduled purge and the operator
 * access that Actuator uses.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "idempotency.store.type", havingValue = "jdbc", matchIfMissing = true)
@ConditionalOnClass(JdbcTemplate.class)
@Conditional(OnRecordsDataSourceCondition.class)
@EnableConfigurationProperties({ IdempotencyProperties.class, IdempotencyJdbcProperties.class,
		IdempotencyPurgeProperties.class })
@Import(DatabaseInitializationDependencyConfigurer.class)
public final class IdempotencyJdbcAutoConfiguration {

	@Bean
	RecordsDataSource idempotencyRecordsDataSource(@IdempotencyDataSource ObjectProvider<DataSource> qualified,
			ObjectProvider<DataSource> application) {
		return RecordsDataSource.of(qualified, application);
	}

	@Bean
	@DependsOnDatabaseInitialization
	IdempotencySchemaCheck idempotencySchemaCheck(RecordsDataSource records, ObjectProvider<IdempotencyStore> store,
			IdempotencyJdbcProperties properties) {
		return new IdempotencySchemaCheck(records.dataSource(),
				() -> store.getIfAvailable() instanceof JdbcIdempotencyStore, properties.getInitializeSchema());
	}

	/**
	 * The store and what only this store needs: its purge and operator access. An application
	 * with a store of its own gets none of them.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(IdempotencyStore.class)
	static class StoreConfiguration {

		@Bean
		IdempotencyStatements idempotencyStatements(RecordsDataSource records) {
			return IdempotencyStatements.of(records.dataSource());
		}

		@Bean
		@DependsOnDatabaseInitialization
		JdbcIdempotencyStore idempotencyStore(RecordsDataSource records, IdempotencyStatements statements,
				IdempotencyJdbcProperties properties) {
			return new JdbcIdempotencyStore(StatementCachingJdbcTemplate.client(records.dataSource()), statements,
					properties.getWriteBatchSize(), records.applications());
		}

		@Bean
		@ConditionalOnMissingBean(IdempotencyRecordAdministration.class)
		JdbcIdempotencyRecordAdministration idempotencyRecordAdministration(RecordsDataSource records,
				IdempotencyStatements statements) {
			return new JdbcIdempotencyRecordAdministration(StatementCachingJdbcTemplate.client(records.dataSource()),
					statements);
		}

		@Bean
		@ConditionalOnMissingBean
		IdempotencyPurger idempotencyPurger(RecordsDataSource records, IdempotencyStatements statements,
				IdempotencyProperties properties, IdempotencyPurgeProperties purge,
				ObjectProvider<PurgeListener> listeners) {
			Set<String> archived = properties.getOperations()
				.entrySet()
				.stream()
				.filter((operation) -> operation.getValue().isArchive())
				.map(Map.Entry::getKey)
				.collect(Collectors.toSet());
			JdbcPurgeBatch batch = new JdbcPurgeBatch(records.dataSource(), statements, archived, purge.getBatchSize(),
					purge.getStuckAfter());
			return new IdempotencyPurger(batch, purge.getPause(), listeners.orderedStream().toList());
		}

		@Configuration(proxyBeanMethods = false)
		@Conditional(PurgeScheduledCondition.class)
		static class PurgeSchedulingConfiguration {

			@Bean
			IdempotencyPurgeScheduler idempotencyPurgeScheduler(IdempotencyPurger purger,
					IdempotencyPurgeProperties properties, ListableBeanFactory beanFactory,
					ObjectProvider<TaskScheduler> taskScheduler,
					ObjectProvider<ThreadPoolTaskSchedulerBuilder> taskSchedulerBuilder,
					ObjectProvider<ObservationRegistry> observationRegistry) {
				String cron = properties.getCron();
				Supplier<ObservationRegistry> observations = SingletonSupplier
					.of(() -> observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP));
				TaskScheduler applicationScheduler = applicationScheduler(taskScheduler, beanFactory);
				if (applicationScheduler != null) {
					return IdempotencyPurgeScheduler.onApplicationScheduler(purger, cron, observations,
							applicationScheduler);
				}
				// Not a bean: a TaskScheduler bean would become the one of the application's
				// @Scheduled methods.
				return IdempotencyPurgeScheduler.onOwnScheduler(purger, cron, observations,
						() -> taskSchedulerBuilder.getIfAvailable(ThreadPoolTaskSchedulerBuilder::new)
							.threadNamePrefix(IdempotencyPurgeScheduler.THREAD_NAME_PREFIX)
							.additionalCustomizers((scheduler) -> scheduler.setDaemon(true))
							.build());
			}

			/**
			 * The scheduler that {@code @Scheduled} methods would use: the only one, the primary
			 * one, or the one named {@code taskScheduler}.
			 */
			private static @Nullable TaskScheduler applicationScheduler(ObjectProvider<TaskScheduler> taskScheduler,
					ListableBeanFactory beanFactory) {
				TaskScheduler unique = taskScheduler.getIfUnique();
				String name = TaskSchedulerRouter.DEFAULT_TASK_SCHEDULER_BEAN_NAME;
				if (unique != null || !beanFactory.containsBean(name)
						|| !beanFactory.isTypeMatch(name, TaskScheduler.class)) {
					return unique;
				}
				return beanFactory.getBean(name, TaskScheduler.class);
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(SchemaInitializationCondition.class)
	static class SchemaInitializationConfiguration {

		@Bean
		IdempotencySchemaInitializer idempotencySchemaInitializer(RecordsDataSource records,
				IdempotencyJdbcProperties properties) {
			return new IdempotencySchemaInitializer(records.dataSource(), properties.getInitializeSchema(),
					properties.getFlywayHistoryTable());
		}

	}

	/**
	 * The read-only entity, in the application's persistence unit only when asked for: there,
	 * Hibernate's {@code ddl-auto} would create or drop the starter's table (as
	 * {@code create-drop}, the default on an embedded database, does), and with
	 * {@code spring.jpa.defer-datasource-initialization} it would do so before the starter's
	 * migrations run.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ EntityManagerFactoryBuilderCustomizer.class, jakarta.persistence.Entity.class })
	@ConditionalOnBooleanProperty("idempotency.jdbc.jpa-entity")
	static class JpaEntityConfiguration {

		/**
		 * Spring Boot 4.1 adds post-processors with {@code addPersistenceUnitPostProcessors};
		 * 4.0 has only the setter, which replaces those of other customizers (Boot itself sets
		 * none), so it is used only where the method to add is missing.
		 */
		private static final @Nullable Method ADD_POST_PROCESSORS = ReflectionUtils
			.findMethod(EntityManagerFactoryBuilder.class, "addPersistenceUnitPostProcessors",
					PersistenceUnitPostProcessor[].class);

		@Bean
		EntityManagerFactoryBuilderCustomizer idempotencyRecordEntityRegistrar() {
			PersistenceUnitPostProcessor[] registrar = {
					(unit) -> unit.addManagedClassName(IdempotencyRecordEntity.class.getName()) };
			return (builder) -> {
				if (ADD_POST_PROCESSORS != null) {
					ReflectionUtils.invokeMethod(ADD_POST_PROCESSORS, builder, (Object) registrar);
				}
				else {
					builder.setPersistenceUnitPostProcessors(registrar);
				}
			};
		}

	}

	/**
	 * Matches unless {@code idempotency.jdbc.initialize-schema} is {@code never}.
	 */
	static class SchemaInitializationCondition extends NoneNestedConditions {

		SchemaInitializationCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnProperty(name = "idempotency.jdbc.initialize-schema", havingValue = "never")
		static class SchemaInitializationNever {

		}

	}

	/**
	 * Matches unless {@code idempotency.purge.cron} is {@code -}.
	 */
	static class PurgeScheduledCondition extends NoneNestedConditions {

		PurgeScheduledCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnProperty(name = "idempotency.purge.cron", havingValue = "-")
		static class PurgeDisabled {

		}

	}

}
