package io.github.idempotency.store.jpa.app;

import java.math.BigDecimal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An entity of the application, over a table that the application's own Flyway migrations create.
 */
@Entity
@Table(name = "app_order")
public class AppOrder {

	@Id
	private Long id;

	@Column(name = "total", nullable = false)
	private BigDecimal total;

	@Column(name = "note", length = 100)
	private String note;

	protected AppOrder() {
	}

	public AppOrder(Long id, BigDecimal total, String note) {
		this.id = id;
		this.total = total;
		this.note = note;
	}

	public Long getId() {
		return this.id;
	}

	public BigDecimal getTotal() {
		return this.total;
	}

	public String getNote() {
		return this.note;
	}

}
