package io.github.idempotency.springways.nodb;

import java.util.Map;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * An application with an {@code @Idempotent} handler and no database.
 */
@SpringBootApplication
public class NoDatabaseApplication {

	@RestController
	static class PaymentsController {

		@Idempotent
		@PostMapping("/payments")
		Map<String, Object> create() {
			return Map.of("created", true);
		}

	}

}
