package io.github.idempotency.actuator;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import io.github.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import io.github.idempotency.autoconfigure.IdempotencyEndpointAutoConfiguration;
import io.github.idempotency.autoconfigure.IdempotencyHealthContributorAutoConfiguration;
import io.github.idempotency.autoconfigure.IdempotencyJdbcAdministrationAutoConfiguration;
import io.github.idempotency.autoconfigure.IdempotencyJdbcStoreAutoConfiguration;
import io.github.idempotency.store.jdbc.DatabasePlatform;
import io.github.idempotency.store.jdbc.IdempotencySql;
import io.github.idempotency.store.jdbc.JdbcIdempotencyRecordAdministration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdempotencyEndpointAutoConfiguration} and
 * {@link IdempotencyHealthContributorAutoConfiguration}: the endpoint only where it is available,
 * the health contribution unless it is disabled.
 */
class ActuatorAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				IdempotencyJdbcStoreAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyJdbcAdministrationAutoConfiguration.class, IdempotencyEndpointAutoConfiguration.class,
				IdempotencyHealthContributorAutoConfiguration.class))
		.withPropertyValues("idempotency.purge.cron=-");

	@Test
	void theEndpointExistsOnlyWhenItIsExposed() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyEndpoint.class));
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=idempotency")
			.run((context) -> assertThat(context).hasSingleBean(IdempotencyEndpoint.class));
	}

	@Test
	void theEndpointIsAbsentWhenItsAccessIsNone() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=idempotency",
					"management.endpoint.idempotency.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyEndpoint.class));
	}

	@Test
	void theHealthContributionExistsUnlessItIsDisabled() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyStoreHealthIndicator.class);
			assertThat(context.getBean(IdempotencyStoreHealthIndicator.class).health().getStatus())
				.isEqualTo(Status.UP);
		});
		this.runner.withPropertyValues("management.health.idempotency.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyStoreHealthIndicator.class));
	}

	@Test
	void masterSwitchOffCreatesNeitherTheEndpointNorTheHealthContribution() {
		this.runner
			.withPropertyValues("idempotency.enabled=false", "management.endpoints.web.exposure.include=idempotency")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(IdempotencyEndpoint.class)
				.doesNotHaveBean(IdempotencyStoreHealthIndicator.class));
	}

	@Test
	void theHealthIsDownWhenTheStoreCannotBeReached() {
		SimpleDriverDataSource unreachable = new SimpleDriverDataSource(new org.postgresql.Driver(),
				"jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2", "postgres", "");
		Health health = new IdempotencyStoreHealthIndicator(new JdbcIdempotencyRecordAdministration(
				new JdbcTemplate(unreachable), IdempotencySql.forPlatform(DatabasePlatform.POSTGRESQL)))
			.health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).doesNotContainKey("stuck");
	}

}
