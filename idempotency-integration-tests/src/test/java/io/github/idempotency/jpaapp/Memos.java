package io.github.idempotency.jpaapp;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * The memos, through Spring Data JPA.
 */
public interface Memos extends JpaRepository<Memo, Long> {

	long countByText(String text);

}
