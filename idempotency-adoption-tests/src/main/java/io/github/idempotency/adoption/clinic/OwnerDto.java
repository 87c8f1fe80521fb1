package io.github.idempotency.adoption.clinic;

import java.util.List;

/**
 * An owner with its pets, as a client receives it.
 *
 * @param id the id
 * @param firstName the first name
 * @param lastName the last name
 * @param address the street address
 * @param city the city
 * @param telephone the telephone number
 * @param notes free-form notes, may be {@code null}
 * @param pets the owner's pets, by name
 */
record OwnerDto(int id, String firstName, String lastName, String address, String city, String telephone,
		String notes, List<PetDto> pets) {

	static OwnerDto of(Owner owner) {
		return new OwnerDto(owner.getId(), owner.getFirstName(), owner.getLastName(), owner.getAddress(),
				owner.getCity(), owner.getTelephone(), owner.getNotes(),
				owner.getPets().stream().map(PetDto::of).toList());
	}

}
