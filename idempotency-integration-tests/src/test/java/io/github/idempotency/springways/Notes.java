package io.github.idempotency.springways;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;

/**
 * ATOMIC handlers that write through JPA, with Spring Boot's default open-in-view entity manager.
 */
final class Notes {

	private Notes() {
	}

	@RestController
	static class NotesController {

		private final NoteRepository notes;

		NotesController(NoteRepository notes) {
			this.notes = notes;
		}

		@Idempotent(operation = "notes", mode = IdempotencyMode.ATOMIC)
		@PostMapping("/notes")
		ResponseEntity<Map<String, Object>> create(@RequestBody Map<String, Object> body,
				@RequestParam(defaultValue = "false") boolean reject) {
			Note note = this.notes.save(new Note(String.valueOf(body.get("value"))));
			if (reject) {
				throw new ResponseStatusException(HttpStatus.UNPROCESSABLE_ENTITY, "rejected after saving");
			}
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", note.getId()));
		}

	}

}
