package io.github.idempotency.sample.sync;

import java.time.Instant;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

/**
 * A user synchronised from the shop; {@code version} is its optimistic lock, raised by one with
 * every accepted sync. Consents live in {@link ConsentChange}s.
 */
@Entity
@Table(name = "app_user")
public class SyncedUser {

	@Id
	private String id;

	@Column(nullable = false, length = 254)
	private String email;

	@Column(name = "display_name", length = 200)
	private String displayName;

	@Version
	@Column(nullable = false)
	private Long version;

	@Column(name = "updated_at", nullable = false)
	private Instant updatedAt;

	protected SyncedUser() {
	}


	/**
	 * Take the synchronised fields of a request, consents aside.
	 * @param request the request
	 * @param now the current time
	 * @return whether any field changed
	 */
	boolean apply(UserSyncRequest request, Instant now) {
		if (Objects.equals(this.email, request.email()) && Objects.equals(this.displayName, request.displayName())) {
			return false;
		}
		this.email = request.email();
		this.displayName = request.displayName();
		this.updatedAt = now;
		return true;
	}

	public String getId() {
		return this.id;
	}

	public String getEmail() {
		return this.email;
	}

	public String getDisplayName() {
		return this.displayName;
	}

	public long getVersion() {
		return this.version;
	}

	public Instant getUpdatedAt() {
		return this.updatedAt;
	}

}
