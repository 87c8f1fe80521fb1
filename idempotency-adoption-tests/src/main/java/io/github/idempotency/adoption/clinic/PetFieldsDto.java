package io.github.idempotency.adoption.clinic;

import java.time.LocalDate;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PastOrPresent;
import jakarta.validation.constraints.Size;

/**
 * The fields of a new pet, as a client sends them.
 *
 * @param name the name, which none of the owner's other pets may have
 * @param birthDate the date of birth
 * @param type the kind of animal, such as {@code cat}
 */
record PetFieldsDto(@NotBlank @Size(max = 30) String name, @NotNull @PastOrPresent LocalDate birthDate,
		@NotBlank @Size(max = 30) String type) {

	Pet toPet() {
		return new Pet(this.name, this.birthDate, this.type);
	}

}
