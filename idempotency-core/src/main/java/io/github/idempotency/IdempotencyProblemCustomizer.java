package io.github.idempotency;

import org.springframework.http.ProblemDetail;

/**
 * Shapes the RFC 9457 problems with which the starter refuses requests (missing or malformed key,
 * key in progress, key reused for another request...), so that they match an application's own
 * error format: add properties, reword the title or the detail. The HTTP status, the headers
 * (such as {@code Retry-After}) and the problem's {@code type} are the contract with retrying
 * clients and stay as they are.
 * <p>
 * Declare one or more as beans. A refusal is answered by the starter where it is decided, before
 * the handler runs, so an application's {@code @ExceptionHandler(Exception.class)} never turns it
 * into something else; this is the one way to shape it.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface IdempotencyProblemCustomizer {

	/**
	 * Customize the problem about to be sent.
	 * @param problem a copy of the problem, with its {@code instance} set to the request path
	 * @param exception the refusal it stands for
	 */
	void customize(ProblemDetail problem, IdempotencyException exception);

}
