package io.github.idempotency.springways;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * The notes, through Spring Data JPA.
 */
public interface NoteRepository extends JpaRepository<Note, Long> {

	long countByText(String text);

}
