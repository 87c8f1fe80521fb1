package io.github.idempotency.sample.problems;

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * Builds the RFC 9457 problems of the sample's own failures, each with a stable type URI.
 */
public final class Problems {

	/**
	 * The prefix of every problem type URI of the sample.
	 */
	public static final String TYPE_PREFIX = "https://payments.example/problems/";

	private Problems() {
	}

	/**
	 * Return a problem.
	 * @param status the HTTP status
	 * @param slug the last segment of the type URI, such as {@code invalid-cart}
	 * @param title the short, fixed summary of the problem type
	 * @param detail what went wrong with this request
	 * @return the problem
	 */
	public static ProblemDetail of(HttpStatus status, String slug, String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(URI.create(TYPE_PREFIX + slug));
		problem.setTitle(title);
		return problem;
	}

}
