package io.github.idempotency.sample.payments;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.github.idempotency.sample.gateway.GatewayCharge;

/**
 * A payment, unique per tenant and idempotency key.
 */
@Entity
@Table(name = "payment")
public class Payment {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	@Column(name = "tenant_id", nullable = false, updatable = false)
	private String tenantId;

	@Column(name = "idempotency_key", nullable = false, updatable = false)
	private String idempotencyKey;

	@Column(name = "customer_id", nullable = false, updatable = false)
	private String customerId;

	@Column(nullable = false, updatable = false)
	private long amount;

	@Column(nullable = false, updatable = false, length = 3)
	private String currency;

	@Enumerated(EnumType.STRING)
	@Column(nullable = false, length = 16)
	private PaymentStatus status;

	@Column(name = "gateway_charge_id", length = 64)
	private String gatewayChargeId;

	@Column(name = "created_at", nullable = false, updatable = false)
	private Instant createdAt;

	protected Payment() {
	}

	Payment(String tenantId, String idempotencyKey, String customerId, long amount, String currency) {
		this.tenantId = tenantId;
		this.idempotencyKey = idempotencyKey;
		this.customerId = customerId;
		this.amount = amount;
		this.currency = currency;
		this.status = PaymentStatus.PENDING;
		this.createdAt = Instant.now();
	}

	void settle(GatewayCharge charge) {
		this.gatewayChargeId = charge.id();
		this.status = charge.isDeclined() ? PaymentStatus.DECLINED : PaymentStatus.SUCCEEDED;
	}

	public Long getId() {
		return this.id;
	}

	public String getTenantId() {
		return this.tenantId;
	}

	public String getIdempotencyKey() {
		return this.idempotencyKey;
	}

	public String getCustomerId() {
		return this.customerId;
	}

	public long getAmount() {
		return this.amount;
	}

	public String getCurrency() {
		return this.currency;
	}

	public PaymentStatus getStatus() {
		return this.status;
	}

	public String getGatewayChargeId() {
		return this.gatewayChargeId;
	}

	public Instant getCreatedAt() {
		return this.createdAt;
	}

}
