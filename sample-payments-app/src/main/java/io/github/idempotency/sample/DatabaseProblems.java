package io.github.idempotency.sample;

import java.net.URI;

import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.TransactionException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Renders a database failure that reaches a controller, such as a lost or refused connection, as
 * a {@code 503} problem that asks for a retry with the same key instead of an error page; being
 * a 5xx, it releases the key.
 */
@RestControllerAdvice
public class DatabaseProblems {

	static final URI TYPE = URI.create("https://payments.example/problems/database-unavailable");

	private static final String RETRY_AFTER_SECONDS = "1";

	@ExceptionHandler({ DataAccessException.class, TransactionException.class })
	ResponseEntity<ProblemDetail> databaseUnavailable(RuntimeException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
				"The database failed or could not be reached; retry the request with the same Idempotency-Key.");
		problem.setType(TYPE);
		problem.setTitle("Database unavailable");
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
			.body(problem);
	}

}
