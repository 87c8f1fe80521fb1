package io.github.idempotency.adoption.clinic;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The clinic's use cases, each in one transaction.
 */
@Service
@Transactional
class ClinicService {

	/**
	 * How many pets one owner may have.
	 */
	static final int MAX_PETS_PER_OWNER = 3;

	private final OwnerRepository owners;

	private final PetRepository pets;

	private final ApplicationEventPublisher events;

	ClinicService(OwnerRepository owners, PetRepository pets, ApplicationEventPublisher events) {
		this.owners = owners;
		this.pets = pets;
		this.events = events;
	}

	Owner addOwner(Owner owner) {
		if (this.owners.existsByTelephone(owner.getTelephone())) {
			throw new ClinicRuleException("The telephone number is already registered to another owner");
		}
		Owner added = this.owners.save(owner);
		this.events.publishEvent(new OwnerAdded(added.getId(), added.getLastName()));
		return added;
	}

	@Transactional(readOnly = true)
	Owner findOwner(int ownerId) {
		return this.owners.findById(ownerId).orElseThrow(() -> new OwnerNotFoundException(ownerId));
	}

	Pet addPet(int ownerId, Pet pet) {
		Owner owner = this.owners.findById(ownerId).orElseThrow(() -> new OwnerNotFoundException(ownerId));
		pet.setOwner(owner);
		Pet added = this.pets.saveAndFlush(pet);
		// Counted after the insert, so that two pets added at once cannot both pass.
		if (this.pets.countByOwnerId(ownerId) > MAX_PETS_PER_OWNER) {
			throw new ClinicRuleException("An owner may have at most " + MAX_PETS_PER_OWNER + " pets");
		}
		this.events.publishEvent(new PetAdded(ownerId, added.getName()));
		return added;
	}

}
