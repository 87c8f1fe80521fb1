package io.github.idempotency.sample.mandates;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.sample.problems.Problems;

/**
 * Renders cart mandate failures as RFC 9457 problems.
 */
@RestControllerAdvice
class CartMandateProblems {

	@ExceptionHandler
	ProblemDetail invalidCart(InvalidCartException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-cart", "Invalid cart", ex.getMessage());
		problem.setProperty("errors", ex.getErrors());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail notFound(CartMandateNotFoundException ex) {
		return Problems.of(HttpStatus.NOT_FOUND, "cart-mandate-not-found", "Cart mandate not found", ex.getMessage());
	}

}
