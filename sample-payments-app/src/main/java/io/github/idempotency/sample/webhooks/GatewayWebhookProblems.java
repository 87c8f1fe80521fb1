package io.github.idempotency.sample.webhooks;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.sample.problems.Problems;

/**
 * Renders gateway webhook failures as RFC 9457 problems.
 */
@RestControllerAdvice(assignableTypes = GatewayWebhookController.class)
class GatewayWebhookProblems {

	/**
	 * How long the gateway should wait before it delivers an early event again.
	 */
	private static final String OUT_OF_ORDER_RETRY_AFTER_SECONDS = "30";

	@ExceptionHandler
	ProblemDetail invalid(InvalidGatewayEventException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-gateway-event", "Invalid gateway event",
				ex.getMessage());
		problem.setProperty("errors", ex.getErrors());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail unknown(UnknownGatewayTransactionException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.NOT_FOUND, "unknown-gateway-transaction",
				"Unknown gateway transaction", ex.getMessage());
		problem.setProperty("transactionId", ex.getTransactionId());
		return problem;
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> outOfOrder(GatewayEventOutOfOrderException ex) {
		return ResponseEntity.status(HttpStatus.CONFLICT)
			.header(HttpHeaders.RETRY_AFTER, OUT_OF_ORDER_RETRY_AFTER_SECONDS)
			.body(refused("gateway-event-out-of-order", "Gateway event out of order", ex));
	}

	@ExceptionHandler
	ProblemDetail invalidTransition(InvalidGatewayTransitionException ex) {
		return refused("invalid-gateway-transition", "Invalid gateway payment transition", ex);
	}

	private static ProblemDetail refused(String slug, String title, RefusedGatewayEventException ex) {
		ProblemDetail problem = Problems.of(HttpStatus.CONFLICT, slug, title, ex.getMessage());
		problem.setProperty("transactionId", ex.getTransactionId());
		problem.setProperty("event", ex.getEvent().value());
		problem.setProperty("state", ex.getState().name());
		return problem;
	}

}
