package io.github.idempotency.adoption.clinic;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * The pets.
 */
interface PetRepository extends JpaRepository<Pet, Integer> {

	long countByOwnerId(Integer ownerId);

}
