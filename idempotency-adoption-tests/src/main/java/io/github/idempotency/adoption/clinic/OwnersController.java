package io.github.idempotency.adoption.clinic;

import java.net.URI;
import java.util.Locale;

import org.springframework.http.ResponseEntity;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

import io.github.idempotency.annotation.Idempotent;

/**
 * Adds and shows owners.
 */
@RestController
class OwnersController implements OwnersApi {

	private final ClinicService clinic;

	OwnersController(ClinicService clinic) {
		this.clinic = clinic;
	}

	@Override
	@PreAuthorize("hasRole('OWNER_ADMIN')")
	@Idempotent(operation = "add-owner")
	public ResponseEntity<OwnerDto> addOwner(OwnerFieldsDto ownerFields) {
		Owner owner = this.clinic.addOwner(ownerFields.toOwner());
		return ResponseEntity.created(location(owner)).body(OwnerDto.of(owner));
	}

	@Override
	@PreAuthorize("hasAnyRole('OWNER_ADMIN', 'VET_ADMIN')")
	public ResponseEntity<OwnerDto> getOwner(int ownerId) {
		return ResponseEntity.ok(OwnerDto.of(this.clinic.findOwner(ownerId)));
	}

	private static URI location(Owner owner) {
		String slug = (owner.getFirstName() + "-" + owner.getLastName()).toLowerCase(Locale.ROOT)
			.replaceAll("[^a-z0-9]+", "-");
		return UriComponentsBuilder.fromPath("/api/owners/{id}/{slug}").buildAndExpand(owner.getId(), slug).toUri();
	}

}
