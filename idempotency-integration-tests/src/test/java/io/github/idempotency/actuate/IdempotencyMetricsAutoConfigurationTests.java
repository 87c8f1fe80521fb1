package io.github.idempotency.actuate;

import io.github.idempotency.engine.IdempotentInvocation;
import io.github.idempotency.engine.IdempotencyAutoConfiguration;
import io.github.idempotency.jdbc.IdempotencyJdbcAutoConfiguration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.idempotency.annotation.Idempotent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdempotencyMetricsAutoConfiguration}: meters only with a {@link MeterRegistry}, registered
 * up front for configured and annotated operations, purge meters only with a purge.
 */
class IdempotencyMetricsAutoConfigurationTests {

	private static final AutoConfigurations IDEMPOTENCY = AutoConfigurations.of(DataSourceAutoConfiguration.class,
			IdempotencyJdbcAutoConfiguration.class, IdempotencyAutoConfiguration.class,
			IdempotencyJdbcAutoConfiguration.class, IdempotencyMetricsAutoConfiguration.class);

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(IDEMPOTENCY)
		.withPropertyValues("idempotency.purge.cron=-");

	@Test
	void withoutAMeterRegistryThereAreNoMeters() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(IdempotentInvocation.class)
				.doesNotHaveBean(IdempotencyMetrics.class)
				.doesNotHaveBean(IdempotencyPurgeMetrics.class);
		});
	}

	@Test
	void withAMeterRegistryConfiguredAndAnnotatedOperationsHaveTheirMetersBeforeTheFirstCall() {
		this.runner.withUserConfiguration(RegistryConfiguration.class, ShippingConfiguration.class)
			.withPropertyValues("idempotency.operations.refunds.ttl=1h")
			.run((context) -> {
				assertThat(context).hasSingleBean(IdempotencyMetrics.class)
					.hasSingleBean(IdempotencyPurgeMetrics.class);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				for (String operation : new String[] { "refunds", "ship-order", "Shipping.cancel" }) {
					assertThat(registry.find("idempotency.requests")
						.tags("operation", operation, "outcome", "executed")
						.counter()).as(operation).isNotNull();
				}
				assertThat(registry.find("idempotency.requests").tag("operation", "Shipping.track").counters())
					.isEmpty();
			});
	}

	@Test
	void theGaugesOfStoredRecordsAreRegisteredUpFrontWhereTheStoreHasAnAdministration() {
		this.runner.withUserConfiguration(RegistryConfiguration.class)
			.withPropertyValues("idempotency.metrics.records-refresh=5s")
			.run((context) -> {
				assertThat(context).hasSingleBean(IdempotencyRecordMetrics.class).hasSingleBean(MeterActivity.class);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				for (String gauge : new String[] { "idempotency.records.stuck", "idempotency.records.expired",
						"idempotency.store.up" }) {
					assertThat(registry.find(gauge).gauge()).as(gauge).isNotNull();
				}
			});
	}

	@Test
	void theAutoConfiguredRegistryOfSpringBootIsUsed() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.withConfiguration(IDEMPOTENCY)
			.run((context) -> {
				assertThat(context).hasSingleBean(IdempotencyMetrics.class);
				assertThat(context.getBean(MeterRegistry.class).find("idempotency.purge.runs").timer()).isNotNull();
			});
	}

	@Test
	void masterSwitchOffCreatesNoMeters() {
		this.runner.withUserConfiguration(RegistryConfiguration.class)
			.withPropertyValues("idempotency.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(IdempotencyMetrics.class)
				.doesNotHaveBean(IdempotencyPurgeMetrics.class)
				.doesNotHaveBean(IdempotencyRecordMetrics.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class RegistryConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ShippingConfiguration {

		@Bean
		Shipping shipping() {
			return new Shipping();
		}

	}

	static class Shipping {

		@Idempotent(operation = "ship-order", key = "#orderId")
		public String ship(String orderId) {
			return "shipped " + orderId;
		}

		@Idempotent(key = "#orderId")
		public String cancel(String orderId) {
			return "cancelled " + orderId;
		}

		public String track(String orderId) {
			return "tracking " + orderId;
		}

	}

}
