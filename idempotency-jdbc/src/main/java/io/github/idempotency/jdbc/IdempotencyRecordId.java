package io.github.idempotency.jdbc;

import java.io.Serializable;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/**
 * The primary key of {@link IdempotencyRecordEntity}: tenant, operation and key.
 */
@Embeddable
class IdempotencyRecordId implements Serializable {

	@Column(name = "tenant_id", nullable = false, length = 255)
	private String tenantId;

	@Column(name = "operation", nullable = false, length = 255)
	private String operation;

	@Column(name = "idempotency_key", nullable = false, length = 255)
	private String idempotencyKey;

	protected IdempotencyRecordId() {
	}

	public IdempotencyRecordId(String tenantId, String operation, String idempotencyKey) {
		this.tenantId = tenantId;
		this.operation = operation;
		this.idempotencyKey = idempotencyKey;
	}

	public String getTenantId() {
		return this.tenantId;
	}

	public String getOperation() {
		return this.operation;
	}

	public String getIdempotencyKey() {
		return this.idempotencyKey;
	}

	@Override
	public boolean equals(Object other) {
		return (other instanceof IdempotencyRecordId that) && Objects.equals(this.tenantId, that.tenantId)
				&& Objects.equals(this.operation, that.operation)
				&& Objects.equals(this.idempotencyKey, that.idempotencyKey);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.tenantId, this.operation, this.idempotencyKey);
	}

}
