package io.github.idempotency.autoconfigure;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import io.github.idempotency.purge.IdempotencyPurgeScheduler;
import io.github.idempotency.purge.IdempotencyPurger;
import io.github.idempotency.purge.PurgeListener;
import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.store.jdbc.DatabasePlatform;
import io.github.idempotency.store.jdbc.IdempotencySql;
import io.github.idempotency.store.jdbc.JdbcIdempotencyRecordAdministration;
import io.github.idempotency.store.jdbc.JdbcIdempotencyStore;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the life cycle of the JDBC store's
 * records: the scheduled purge, and the operator access that Actuator uses.
 */
@AutoConfiguration(after = IdempotencyJdbcStoreAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnClass(JdbcTemplate.class)
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBean(JdbcIdempotencyStore.class)
@EnableConfigurationProperties(IdempotencyProperties.class)
public final class IdempotencyJdbcAdministrationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(IdempotencyRecordAdministration.class)
	JdbcIdempotencyRecordAdministration idempotencyRecordAdministration(DataSource dataSource) {
		return new JdbcIdempotencyRecordAdministration(new JdbcTemplate(dataSource),
				IdempotencySql.forPlatform(DatabasePlatform.of(dataSource)));
	}

	@Bean
	@ConditionalOnMissingBean
	IdempotencyPurger idempotencyPurger(DataSource dataSource, IdempotencyProperties properties,
			ObjectProvider<PurgeListener> listeners) {
		IdempotencyProperties.Purge purge = properties.getPurge();
		Set<String> archived = properties.getOperations()
			.entrySet()
			.stream()
			.filter((operation) -> operation.getValue().isArchive())
			.map(Map.Entry::getKey)
			.collect(Collectors.toSet());
		return new IdempotencyPurger(dataSource, IdempotencySql.forPlatform(DatabasePlatform.of(dataSource)), archived,
				purge.getBatchSize(), purge.getPause(), purge.getStuckAfter(), listeners.orderedStream().toList());
	}

	@Configuration(proxyBeanMethods = false)
	@Conditional(PurgeScheduledCondition.class)
	static class PurgeSchedulingConfiguration {

		@Bean
		@ConditionalOnMissingBean
		IdempotencyPurgeScheduler idempotencyPurgeScheduler(IdempotencyPurger purger,
				IdempotencyProperties properties) {
			return new IdempotencyPurgeScheduler(purger, properties.getPurge().getCron());
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
