package io.github.idempotency.sample.sync;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

/**
 * One change of a user's consent to a purpose: a row of the append-only
 * {@code user_consent_history}, which Hibernate never updates.
 */
@Entity
@Immutable
@Table(name = "user_consent_history")
public class ConsentChange {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	@Column(name = "user_id", nullable = false)
	private String userId;

	@Column(nullable = false, length = 32)
	private String purpose;

	@Column(nullable = false)
	private boolean granted;

	@Column(name = "user_version", nullable = false)
	private long userVersion;

	@Column(name = "recorded_at", nullable = false)
	private Instant recordedAt;

	protected ConsentChange() {
	}

	ConsentChange(String userId, String purpose, boolean granted, long userVersion, Instant recordedAt) {
		this.userId = userId;
		this.purpose = purpose;
		this.granted = granted;
		this.userVersion = userVersion;
		this.recordedAt = recordedAt;
	}

	public Long getId() {
		return this.id;
	}

	public String getUserId() {
		return this.userId;
	}

	public String getPurpose() {
		return this.purpose;
	}

	public boolean isGranted() {
		return this.granted;
	}

	public long getUserVersion() {
		return this.userVersion;
	}

	public Instant getRecordedAt() {
		return this.recordedAt;
	}

}
