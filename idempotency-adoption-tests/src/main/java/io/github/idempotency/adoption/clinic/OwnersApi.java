package io.github.idempotency.adoption.clinic;

import jakarta.validation.Valid;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

/**
 * The owners API, written as an OpenAPI generator writes it: the mappings on the interface, the
 * controller implements it.
 */
interface OwnersApi {

	@PostMapping(value = "/api/owners", consumes = "application/json", produces = "application/json")
	ResponseEntity<OwnerDto> addOwner(@Valid @RequestBody OwnerFieldsDto ownerFields);

	// The second form carries a readable slug of the owner's name, which is ignored.
	@GetMapping(value = { "/api/owners/{ownerId}", "/api/owners/{ownerId}/{slug}" }, produces = "application/json")
	ResponseEntity<OwnerDto> getOwner(@PathVariable("ownerId") int ownerId);

}
