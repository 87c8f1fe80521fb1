package io.github.idempotency.jpaapp;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;

/**
 * A memo, one per run of the operation that creates it.
 */
@Entity
public class Memo {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String text;

	protected Memo() {
	}

	Memo(String text) {
		this.text = text;
	}

	public Long getId() {
		return this.id;
	}

	public String getText() {
		return this.text;
	}

}
