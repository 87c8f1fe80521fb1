package io.github.idempotency.adoption.clinic;

import java.time.LocalDate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;

/**
 * A pet, known to its owner by a name no other of the owner's pets has.
 */
@Entity
@Table(name = "pets", uniqueConstraints = @UniqueConstraint(name = "uk_pets_owner_name",
		columnNames = { "owner_id", "name" }))
class Pet {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Integer id;

	@Column(length = 30, nullable = false)
	private String name;

	@Column(name = "birth_date", nullable = false)
	private LocalDate birthDate;

	@Column(length = 30, nullable = false)
	private String type;

	@ManyToOne(fetch = FetchType.LAZY, optional = false)
	@JoinColumn(name = "owner_id")
	private Owner owner;

	protected Pet() {
	}

	Pet(String name, LocalDate birthDate, String type) {
		this.name = name;
		this.birthDate = birthDate;
		this.type = type;
	}

	Integer getId() {
		return this.id;
	}

	String getName() {
		return this.name;
	}

	LocalDate getBirthDate() {
		return this.birthDate;
	}

	String getType() {
		return this.type;
	}

	Owner getOwner() {
		return this.owner;
	}

	void setOwner(Owner owner) {
		this.owner = owner;
	}

}
