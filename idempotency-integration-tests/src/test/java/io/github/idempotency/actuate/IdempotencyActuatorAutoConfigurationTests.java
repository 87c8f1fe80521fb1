package io.github.idempotency.actuate;

import io.github.idempotency.jdbc.JdbcTestSupport;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdempotencyActuatorAutoConfiguration} and
 * {@link IdempotencyActuatorAutoConfiguration}: the endpoint only where it is available,
 * the health contribution unless it is disabled.
 */
class IdempotencyActuatorAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class,
				IdempotencyJdbcAutoConfiguration.class, IdempotencyActuatorAutoConfiguration.class,
				IdempotencyActuatorAutoConfiguration.class))
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
	void theDashboardExistsOnlyWhenItIsEnabledAndExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=idempotency,idempotencydashboard")
			.run((context) -> assertThat(context).hasSingleBean(IdempotencyEndpoint.class)
				.doesNotHaveBean(IdempotencyDashboardEndpoint.class));
		this.runner.withPropertyValues("idempotency.dashboard.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyDashboardEndpoint.class));
		this.runner
			.withPropertyValues("idempotency.dashboard.enabled=true",
					"management.endpoints.web.exposure.include=idempotency,idempotencydashboard")
			.run((context) -> assertThat(context).hasSingleBean(IdempotencyDashboardEndpoint.class));
		this.runner
			.withPropertyValues("idempotency.dashboard.enabled=true", "management.endpoints.web.exposure.include=*",
					"management.endpoint.idempotencydashboard.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyDashboardEndpoint.class));
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
		Health health = new IdempotencyStoreHealthIndicator(JdbcTestSupport.postgresAdministration(unreachable))
			.health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).doesNotContainKey("stuck");
	}

}
