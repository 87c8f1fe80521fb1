package io.github.idempotency.engine;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.idempotency.annotation.IdempotencyMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link PropertiesOperationPolicies}.
 */
class PropertiesOperationPoliciesTests {

	private final IdempotencyProperties properties = new IdempotencyProperties();

	@Test
	void operationWithoutSettingsGetsTheDefaults() {
		OperationPolicy policy = new PropertiesOperationPolicies(this.properties).policyFor("POST /orders", null);
		assertThat(policy.operation()).isEqualTo("POST /orders");
		assertThat(policy.mode()).isEqualTo(IdempotencyMode.LEASED);
		assertThat(policy.ttl()).isEqualTo(Duration.ofHours(24));
		assertThat(policy.lease()).isEqualTo(Duration.ofSeconds(30));
		assertThat(policy.maxWait()).isZero();
	}

	@Test
	void operationWithoutSettingsGetsTheConfiguredDefaults() {
		this.properties.setDefaultMode(IdempotencyMode.ATOMIC);
		this.properties.setDefaultTtl(Duration.ofHours(2));
		this.properties.setDefaultLease(Duration.ofSeconds(10));
		this.properties.setDefaultWait(Duration.ofSeconds(3));
		OperationPolicy policy = new PropertiesOperationPolicies(this.properties).policyFor("POST /orders", null);
		assertThat(policy).isEqualTo(new OperationPolicy("POST /orders", IdempotencyMode.ATOMIC, Duration.ofHours(2),
				Duration.ofSeconds(10), Duration.ofSeconds(3), false));
	}

	@Test
	void operationSettingsOverrideTheDefaults() {
		IdempotencyProperties.Operation payment = operation("create-payment");
		payment.setTtl(Duration.ofDays(7));
		payment.setLease(Duration.ofMinutes(2));
		payment.setWait(Duration.ofSeconds(5));
		payment.setMode(IdempotencyMode.ATOMIC);
		assertThat(new PropertiesOperationPolicies(this.properties).policyFor("create-payment", null))
			.isEqualTo(new OperationPolicy("create-payment", IdempotencyMode.ATOMIC, Duration.ofDays(7),
					Duration.ofMinutes(2), Duration.ofSeconds(5), false));
	}

	@Test
	void eachUnsetOperationSettingFallsBackOnItsOwn() {
		this.properties.setDefaultLease(Duration.ofSeconds(20));
		operation("create-payment").setTtl(Duration.ofDays(7));
		OperationPolicy policy = new PropertiesOperationPolicies(this.properties).policyFor("create-payment", null);
		assertThat(policy.ttl()).isEqualTo(Duration.ofDays(7));
		assertThat(policy.lease()).isEqualTo(Duration.ofSeconds(20));
		assertThat(policy.mode()).isEqualTo(IdempotencyMode.LEASED);
		assertThat(policy.maxWait()).isZero();
	}

	@Test
	void settingsOfOneOperationDoNotLeakIntoAnother() {
		operation("create-payment").setTtl(Duration.ofDays(7));
		assertThat(new PropertiesOperationPolicies(this.properties).policyFor("create-refund", null).ttl())
			.isEqualTo(Duration.ofHours(24));
	}

	@Test
	void archiveOfTheOperationReachesItsPolicyAndSurvivesAModeOverride() {
		operation("create-payment").setArchive(true);
		PropertiesOperationPolicies policies = new PropertiesOperationPolicies(this.properties);
		assertThat(policies.policyFor("create-payment", null).archive()).isTrue();
		assertThat(policies.policyFor("create-payment", IdempotencyMode.ATOMIC).archive()).isTrue();
		assertThat(policies.policyFor("create-refund", null).archive()).isFalse();
	}

	@Test
	void modeOfTheAnnotationOverridesTheConfiguredMode() {
		IdempotencyProperties.Operation payment = operation("create-payment");
		payment.setMode(IdempotencyMode.LEASED);
		payment.setTtl(Duration.ofDays(7));
		PropertiesOperationPolicies policies = new PropertiesOperationPolicies(this.properties);
		OperationPolicy overridden = policies.policyFor("create-payment", IdempotencyMode.ATOMIC);
		assertThat(overridden.mode()).isEqualTo(IdempotencyMode.ATOMIC);
		assertThat(overridden.ttl()).isEqualTo(Duration.ofDays(7));
		assertThat(policies.policyFor("create-payment", null).mode()).isEqualTo(IdempotencyMode.LEASED);
		assertThat(policies.policyFor("create-payment", IdempotencyMode.LEASED).mode())
			.isEqualTo(IdempotencyMode.LEASED);
	}

	@Test
	void modeOfTheAnnotationOverridesTheDefaultMode() {
		this.properties.setDefaultMode(IdempotencyMode.ATOMIC);
		assertThat(new PropertiesOperationPolicies(this.properties).policyFor("POST /orders", IdempotencyMode.LEASED)
			.mode()).isEqualTo(IdempotencyMode.LEASED);
	}

	@Test
	void invalidOperationSettingsAreRefusedUpFront() {
		operation("create-payment").setLease(Duration.ZERO);
		assertThatIllegalArgumentException().isThrownBy(() -> new PropertiesOperationPolicies(this.properties))
			.withMessageContaining("lease");
	}

	@Test
	void negativeWaitIsRefused() {
		operation("create-payment").setWait(Duration.ofSeconds(-1));
		assertThatIllegalArgumentException().isThrownBy(() -> new PropertiesOperationPolicies(this.properties))
			.withMessageContaining("create-payment");
	}

	private IdempotencyProperties.Operation operation(String name) {
		return this.properties.getOperations().computeIfAbsent(name, (key) -> new IdempotencyProperties.Operation());
	}

}
