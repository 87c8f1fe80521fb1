package io.github.idempotency.adoption.clinic;

import jakarta.validation.Valid;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

/**
 * The pets API, written as an OpenAPI generator writes it.
 */
interface PetsApi {

	@PostMapping(value = "/api/owners/{ownerId}/pets", consumes = "application/json", produces = "application/json")
	ResponseEntity<PetDto> addPet(@PathVariable("ownerId") int ownerId, @Valid @RequestBody PetFieldsDto petFields);

}
