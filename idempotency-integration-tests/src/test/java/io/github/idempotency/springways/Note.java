package io.github.idempotency.springways;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A row written through JPA by an ATOMIC handler.
 */
@Entity
@Table(name = "note")
public class Note {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String text;

	protected Note() {
	}

	Note(String text) {
		this.text = text;
	}

	Long getId() {
		return this.id;
	}

}
