package io.github.idempotency.sample.orders;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.sample.problems.Problems;

/**
 * Renders order failures as RFC 9457 problems.
 */
@RestControllerAdvice
class OrderProblems {

	@ExceptionHandler
	ProblemDetail expired(CartMandateExpiredException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.UNPROCESSABLE_CONTENT, "cart-mandate-expired",
				"Cart mandate expired", ex.getMessage());
		problem.setProperty("cartMandateId", ex.getCartMandateId());
		problem.setProperty("expiredAt", ex.getExpiredAt().toString());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail invalidOrder(InvalidOrderException ex) {
		return Problems.of(HttpStatus.BAD_REQUEST, "invalid-order", "Invalid order", ex.getMessage());
	}

	@ExceptionHandler
	ProblemDetail notFound(OrderNotFoundException ex) {
		return Problems.of(HttpStatus.NOT_FOUND, "order-not-found", "Order not found", ex.getMessage());
	}

}
