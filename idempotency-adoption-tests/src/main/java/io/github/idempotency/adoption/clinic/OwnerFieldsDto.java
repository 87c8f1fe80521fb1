package io.github.idempotency.adoption.clinic;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * The fields of a new owner, as a client sends them.
 *
 * @param firstName the first name
 * @param lastName the last name
 * @param address the street address
 * @param city the city
 * @param telephone the telephone number, up to ten digits
 * @param notes free-form notes, may be {@code null}
 */
record OwnerFieldsDto(@NotBlank @Size(max = 30) String firstName, @NotBlank @Size(max = 2048) String lastName,
		@NotBlank @Size(max = 255) String address, @NotBlank @Size(max = 80) String city,
		@NotBlank @Pattern(regexp = "\\d{1,10}") String telephone, @Size(max = 200_000) String notes) {

	Owner toOwner() {
		return new Owner(this.firstName, this.lastName, this.address, this.city, this.telephone, this.notes);
	}

}
