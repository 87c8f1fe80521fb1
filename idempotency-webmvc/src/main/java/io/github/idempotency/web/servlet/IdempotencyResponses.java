package io.github.idempotency.web.servlet;

import java.io.IOException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.github.idempotency.IdempotencyException;
import io.github.idempotency.store.StoredResponse;
import io.github.idempotency.web.HttpProblems;

/**
 * Writes the starter's RFC 9457 problems straight to a Servlet response.
 */
final class IdempotencyResponses {

	private IdempotencyResponses() {
	}

	/**
	 * Write the answer to a refusal straight to a response.
	 * @param problems the problems
	 * @param request the request
	 * @param response the response
	 * @param ex the refusal
	 * @throws IOException if writing fails
	 */
	static void writeProblem(HttpProblems problems, HttpServletRequest request, HttpServletResponse response,
			IdempotencyException ex) throws IOException {
		StoredResponse answer = problems.response(ex, request.getRequestURI());
		response.setStatus(answer.status());
		answer.headers().forEach((name, values) -> values.forEach((value) -> response.addHeader(name, value)));
		response.setContentType(HttpProblems.PROBLEM_JSON);
		response.setContentLength(answer.body().length);
		response.getOutputStream().write(answer.body());
		response.flushBuffer();
	}

}
