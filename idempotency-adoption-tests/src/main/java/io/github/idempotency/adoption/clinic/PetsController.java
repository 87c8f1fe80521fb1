package io.github.idempotency.adoption.clinic;

import org.springframework.http.ResponseEntity;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;

/**
 * Adds pets to owners; the key's record commits with the pet, or neither does.
 */
@RestController
class PetsController implements PetsApi {

	private final ClinicService clinic;

	PetsController(ClinicService clinic) {
		this.clinic = clinic;
	}

	@Override
	@PreAuthorize("hasRole('OWNER_ADMIN')")
	@Idempotent(operation = "add-pet", mode = IdempotencyMode.ATOMIC)
	public ResponseEntity<PetDto> addPet(int ownerId, PetFieldsDto petFields) {
		Pet pet = this.clinic.addPet(ownerId, petFields.toPet());
		return ResponseEntity
			.created(UriComponentsBuilder.fromPath("/api/owners/{ownerId}/pets/{petId}")
				.buildAndExpand(ownerId, pet.getId())
				.toUri())
			.body(PetDto.of(pet));
	}

}
