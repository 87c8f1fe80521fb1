package io.github.idempotency.sample.sync;

import java.time.Instant;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

/**
 * A product synchronised from the shop; {@code version} is its optimistic lock, raised by one with
 * every accepted sync.
 */
@Entity
@Table(name = "product")
public class Product {

	@Id
	private String id;

	@Column(nullable = false, length = 200)
	private String name;

	@Column(nullable = false)
	private long price;

	@Column(nullable = false, length = 3)
	private String currency;

	@Version
	@Column(nullable = false)
	private Long version;

	@Column(name = "updated_at", nullable = false)
	private Instant updatedAt;

	protected Product() {
	}


	/**
	 * Take the synchronised fields of a request.
	 * @param request the request
	 * @param now the current time
	 * @return whether any field changed
	 */
	boolean apply(ProductSyncRequest request, Instant now) {
		if (Objects.equals(this.name, request.name()) && this.price == request.price()
				&& Objects.equals(this.currency, request.currency())) {
			return false;
		}
		this.name = request.name();
		this.price = request.price();
		this.currency = request.currency();
		this.updatedAt = now;
		return true;
	}

	public String getId() {
		return this.id;
	}

	public String getName() {
		return this.name;
	}

	public long getPrice() {
		return this.price;
	}

	public String getCurrency() {
		return this.currency;
	}

	public long getVersion() {
		return this.version;
	}

	public Instant getUpdatedAt() {
		return this.updatedAt;
	}

}
