package io.github.idempotency.adoption.clinic;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;

/**
 * An owner of pets.
 */
@Entity
@Table(name = "owners")
class Owner {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Integer id;

	@Column(name = "first_name", length = 30, nullable = false)
	private String firstName;

	@Column(name = "last_name", length = 2048, nullable = false)
	private String lastName;

	@Column(length = 255, nullable = false)
	private String address;

	@Column(length = 80, nullable = false)
	private String city;

	@Column(length = 10, nullable = false)
	private String telephone;

	@Column(length = 200_000)
	private String notes;

	@OneToMany(mappedBy = "owner")
	@OrderBy("name")
	private List<Pet> pets = new ArrayList<>();

	protected Owner() {
	}

	Owner(String firstName, String lastName, String address, String city, String telephone, String notes) {
		this.firstName = firstName;
		this.lastName = lastName;
		this.address = address;
		this.city = city;
		this.telephone = telephone;
		this.notes = notes;
	}

	Integer getId() {
		return this.id;
	}

	String getFirstName() {
		return this.firstName;
	}

	String getLastName() {
		return this.lastName;
	}

	String getAddress() {
		return this.address;
	}

	String getCity() {
		return this.city;
	}

	String getTelephone() {
		return this.telephone;
	}

	String getNotes() {
		return this.notes;
	}

	List<Pet> getPets() {
		return this.pets;
	}

}
