package io.github.idempotency.actuate;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.idempotency.store.IdempotencyRecordAdministration;

/**
 * Health of the idempotency store: up when its table can be queried, with the number of records
 * stuck in progress past their lease; down when the store cannot be reached.
 */
class IdempotencyStoreHealthIndicator extends AbstractHealthIndicator {

	private final IdempotencyRecordAdministration administration;

	public IdempotencyStoreHealthIndicator(IdempotencyRecordAdministration administration) {
		super("Idempotency store health check failed");
		this.administration = administration;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.up().withDetail("stuck", this.administration.countStuck());
	}

}
