package io.github.idempotency.jdbc;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;
import org.hibernate.annotations.ColumnDefault;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.github.idempotency.store.RecordStatus;

/**
 * Read-only JPA view of the {@code idempotency_record} table, mapped column for column as the
 * starter's migrations create it, so that Hibernate's {@code ddl-auto=update} or
 * {@code validate} finds nothing to change; it joins the application's persistence unit only
 * when {@code idempotency.jdbc.jpa-entity=true}. The starter itself writes through
 * {@code JdbcIdempotencyStore}.
 */
@Entity
@Table(name = "idempotency_record")
class IdempotencyRecordEntity {

	@EmbeddedId
	private IdempotencyRecordId id;

	@Enumerated(EnumType.STRING)
	@JdbcTypeCode(SqlTypes.VARCHAR)
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

	// Unbounded, without a length: TEXT on PostgreSQL, CHARACTER VARYING on H2. A length would
	// have Hibernate shrink the column, and fail the completion of longer responses.
	@Column(name = "response_headers", columnDefinition = "character varying")
	private String responseHeaders;

	// BYTEA on PostgreSQL, BINARY VARYING on H2 (which reads bytea as such), unbounded on both.
	@Column(name = "response_body", columnDefinition = "bytea")
	private byte[] responseBody;

	@ColumnDefault("1")
	@Column(name = "attempts", nullable = false)
	private int attempts;

	@Column(name = "last_failure", length = 255)
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
