package io.github.idempotency.internal.jdbc;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;

import io.github.idempotency.store.RecordStatus;

/**
 * Read-only JPA view of the {@code idempotency_record} table, registered in the application's
 * persistence unit so that {@code ddl-auto=validate} checks the starter's schema and applications
 * can query records. The starter itself writes through {@code JdbcIdempotencyStore}.
 */
@Entity
@Table(name = "idempotency_record")
public class IdempotencyRecordEntity {

	@EmbeddedId
	private IdempotencyRecordId id;

	@Enumerated(EnumType.STRING)
	@Column(name = "status", nullable = false, length = 16)
	private RecordStatus status;

	@Column(name = "request_fingerprint", nullable = false, length = 64)
	private String requestFingerprint;

	@Column(name = "fencing_token", nullable = false)
	private UUID fencingToken;

	@Column(name = "locked_until")
	private Instant lockedUntil;

	@Column(name = "created_at", nullable = false)
	private Instant createdAt;

	@Column(name = "completed_at")
	private Instant completedAt;

	@Column(name = "expires_at", nullable = false)
	private Instant expiresAt;

	@Column(name = "response_status")
	private Integer responseStatus;

	@Column(name = "response_headers")
	private String responseHeaders;

	@Column(name = "response_body")
	private byte[] responseBody;

	@Column(name = "attempts", nullable = false)
	private int attempts;

	@Column(name = "last_failure")
	private String lastFailure;

	@Column(name = "last_failure_at")
	private Instant lastFailureAt;

	protected IdempotencyRecordEntity() {
	}

	public IdempotencyRecordId getId() {
		return this.id;
	}

	public RecordStatus getStatus() {
		return this.status;
	}

	public String getRequestFingerprint() {
		return this.requestFingerprint;
	}

	public UUID getFencingToken() {
		return this.fencingToken;
	}

	public Instant getLockedUntil() {
		return this.lockedUntil;
	}

	public Instant getCreatedAt() {
		return this.createdAt;
	}

	public Instant getCompletedAt() {
		return this.completedAt;
	}

	public Instant getExpiresAt() {
		return this.expiresAt;
	}

	public Integer getResponseStatus() {
		return this.responseStatus;
	}

	public String getResponseHeaders() {
		return this.responseHeaders;
	}

	public byte[] getResponseBody() {
		return this.responseBody;
	}

	public int getAttempts() {
		return this.attempts;
	}

	public String getLastFailure() {
		return this.lastFailure;
	}

	public Instant getLastFailureAt() {
		return this.lastFailureAt;
	}

}
