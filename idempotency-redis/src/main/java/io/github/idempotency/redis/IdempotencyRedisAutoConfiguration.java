package io.github.idempotency.redis;

import io.github.idempotency.engine.IdempotencyProperties;

import javax.sql.DataSource;

import io.lettuce.core.RedisClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AllNestedConditions;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.idempotency.store.IdempotencyRecordAdministration;
import io.github.idempotency.engine.IdempotentOperationNames;
import io.github.idempotency.store.IdempotencyStore;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the Redis idempotency store on the
 * application's {@link RedisConnectionFactory} (Lettuce), when {@code idempotency.store.type} is
 * {@code redis}, or is not set and the application has no {@link DataSource}: the store, the
 * operator access and health contribution that Actuator uses, and the start-up refusal of what
 * Redis cannot do (ATOMIC, archive). Expiry is native, so there is no purge.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
		"io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "idempotency.enabled", matchIfMissing = true)
@ConditionalOnClass({ RedisConnectionFactory.class, RedisClient.class })
@Conditional(IdempotencyRedisAutoConfiguration.RedisStoreCondition.class)
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
@EnableConfigurationProperties({ IdempotencyProperties.class, IdempotencyRedisProperties.class })
public final class IdempotencyRedisAutoConfiguration {

	/**
	 * The store and what only this store needs. An application with a store of its own gets none
	 * of them.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(IdempotencyStore.class)
	static class StoreConfiguration {

		@Bean
		RedisIdempotencyStore idempotencyStore(RedisConnectionFactory connectionFactory,
				IdempotencyRedisProperties redis) {
			if (redis.getWaitReplicas() == 0 && NonBlockingRedisIdempotencyStore.supports(connectionFactory)) {
				return new NonBlockingRedisIdempotencyStore((LettuceConnectionFactory) connectionFactory,
						redis.getKeyPrefix());
			}
			return new RedisIdempotencyStore(connectionFactory, redis.getKeyPrefix(), redis.getWaitReplicas(),
					redis.getWaitTimeout());
		}

		@Bean
		@ConditionalOnMissingBean(IdempotencyRecordAdministration.class)
		RedisIdempotencyRecordAdministration idempotencyRecordAdministration(RedisConnectionFactory connectionFactory,
				IdempotencyRedisProperties redis) {
			return new RedisIdempotencyRecordAdministration(connectionFactory, redis.getKeyPrefix());
		}

		@Bean
		RedisStoreSettingsCheck idempotencyRedisStoreSettingsCheck(IdempotencyProperties properties,
				ObjectProvider<IdempotentOperationNames> names) {
			return new RedisStoreSettingsCheck(properties, names);
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
		@ConditionalOnEnabledHealthIndicator("idempotency")
		static class HealthConfiguration {

			@Bean
			@ConditionalOnMissingBean(name = "idempotencyHealthIndicator")
			RedisIdempotencyStoreHealthIndicator idempotencyHealthIndicator(RedisConnectionFactory connectionFactory) {
				return new RedisIdempotencyStoreHealthIndicator(connectionFactory);
			}

		}

	}

	/**
	 * Matches when {@code idempotency.store.type} is {@code redis}, or when it is not set and the
	 * application has no {@link DataSource} for the JDBC store.
	 */
	static class RedisStoreCondition extends AnyNestedCondition {

		RedisStoreCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnProperty(name = "idempotency.store.type", havingValue = "redis")
		static class RedisChosen {

		}

		@Conditional(DefaultToRedisCondition.class)
		static class NothingChosenAndNoDataSource {

		}

	}

	/**
	 * Matches when {@code idempotency.store.type} is not set and there is no {@link DataSource}.
	 */
	static class DefaultToRedisCondition extends AllNestedConditions {

		DefaultToRedisCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@Conditional(StoreTypeNotSetCondition.class)
		static class StoreTypeNotSet {

		}

		@ConditionalOnMissingBean(DataSource.class)
		static class NoDataSource {

		}

	}

	/**
	 * Matches when {@code idempotency.store.type} is not set.
	 */
	static class StoreTypeNotSetCondition extends NoneNestedConditions {

		StoreTypeNotSetCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnProperty(name = "idempotency.store.type")
		static class StoreTypeSet {

		}

	}

}
