package io.github.idempotency.adoption.clinic;

import java.time.LocalDate;

/**
 * A pet, as a client receives it.
 *
 * @param id the id
 * @param name the name
 * @param birthDate the date of birth
 * @param type the kind of animal
 */
record PetDto(int id, String name, LocalDate birthDate, String type) {

	static PetDto of(Pet pet) {
		return new PetDto(pet.getId(), pet.getName(), pet.getBirthDate(), pet.getType());
	}

}
