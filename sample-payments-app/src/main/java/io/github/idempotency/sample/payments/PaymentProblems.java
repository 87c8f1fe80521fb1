package io.github.idempotency.sample.payments;

import java.net.URI;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import io.github.idempotency.sample.gateway.GatewayUnavailableException;

/**
 * Renders payment failures as RFC 9457 problems with stable type URIs.
 */
@RestControllerAdvice
public class PaymentProblems {

	static final String TYPE_PREFIX = "https://payments.example/problems/";

	private static final String GATEWAY_RETRY_AFTER_SECONDS = "1";

	@ExceptionHandler
	ProblemDetail invalidPayment(InvalidPaymentException ex) {
		return problem(HttpStatus.BAD_REQUEST, "invalid-payment", "Invalid payment", ex.getMessage());
	}

	@ExceptionHandler
	ProblemDetail declined(PaymentDeclinedException ex) {
		ProblemDetail problem = problem(HttpStatus.PAYMENT_REQUIRED, "declined", "Payment declined",
				ex.getMessage());
		problem.setProperty("paymentId", ex.getPayment().id());
		problem.setProperty("gatewayChargeId", ex.getPayment().gatewayChargeId());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail notFound(PaymentNotFoundException ex) {
		return problem(HttpStatus.NOT_FOUND, "payment-not-found", "Payment not found", ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> gatewayUnavailable(GatewayUnavailableException ex) {
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, GATEWAY_RETRY_AFTER_SECONDS)
			.body(problem(HttpStatus.SERVICE_UNAVAILABLE, "gateway-unavailable", "Payment gateway unavailable",
					ex.getMessage()));
	}

	private static ProblemDetail problem(HttpStatus status, String slug, String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(URI.create(TYPE_PREFIX + slug));
		problem.setTitle(title);
		return problem;
	}

}
