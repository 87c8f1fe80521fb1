package io.github.idempotency.adoption.clinic;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * The owners.
 */
interface OwnerRepository extends JpaRepository<Owner, Integer> {

	boolean existsByTelephone(String telephone);

}
