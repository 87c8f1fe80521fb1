package io.github.idempotency.sample.sync;

import java.util.List;

import org.springframework.data.repository.Repository;

/**
 * The append-only consent history: it can add changes and read them, and has no way to update or
 * delete one.
 */
interface ConsentHistory extends Repository<ConsentChange, Long> {

	ConsentChange save(ConsentChange change);

	List<ConsentChange> findByUserIdOrderById(String userId);

}
