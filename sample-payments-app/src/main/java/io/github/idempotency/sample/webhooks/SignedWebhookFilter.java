package io.github.idempotency.sample.webhooks;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.sample.problems.Problems;

/**
 * Refuses webhooks that are not signed with their sender's secret before the request reaches the
 * idempotent handler: a forged request never claims an event's key, so it can neither run the
 * handler nor block the genuine delivery. It runs before the starter's filter and hands the body
 * it read on to it.
 */
class SignedWebhookFilter extends OncePerRequestFilter {

	static final int MAX_BODY_BYTES = 1024 * 1024;

	private final String sender;

	private final String scheme;

	private final String signatureHeader;

	private final WebhookSignature signature;

	private final JsonMapper json;

	/**
	 * Create a filter for the webhooks of one sender.
	 * @param sender who sends the webhooks, such as {@code shop}, as the refusal names it
	 * @param scheme the authentication scheme a refusal announces in {@code WWW-Authenticate}
	 * @param signatureHeader the header that carries the signature
	 * @param signature the sender's signature
	 * @param json writes the problems
	 */
	SignedWebhookFilter(String sender, String scheme, String signatureHeader, WebhookSignature signature,
			JsonMapper json) {
		this.sender = sender;
		this.scheme = scheme;
		this.signatureHeader = signatureHeader;
		this.signature = signature;
		this.json = json;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !"POST".equals(request.getMethod());
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > MAX_BODY_BYTES) {
			refuse(request, response, HttpStatus.CONTENT_TOO_LARGE, "webhook-too-large", "Webhook too large",
					"A webhook body may have at most " + MAX_BODY_BYTES + " bytes.");
			return;
		}
		byte[] body = request.getInputStream().readNBytes(MAX_BODY_BYTES + 1);
		if (body.length > MAX_BODY_BYTES) {
			refuse(request, response, HttpStatus.CONTENT_TOO_LARGE, "webhook-too-large", "Webhook too large",
					"A webhook body may have at most " + MAX_BODY_BYTES + " bytes.");
			return;
		}
		if (!this.signature.matches(body, request.getHeader(this.signatureHeader))) {
			response.setHeader(HttpHeaders.WWW_AUTHENTICATE, this.scheme);
			refuse(request, response, HttpStatus.UNAUTHORIZED, "invalid-webhook-signature",
					"Invalid webhook signature", "The " + this.signatureHeader
							+ " header is missing or is not the HMAC-SHA256 of the body with the " + this.sender
							+ "'s secret.");
			return;
		}
		if (accepts(request, response)) {
			chain.doFilter(new CachedBodyRequest(request, body), response);
		}
	}

	/**
	 * Check a signed request further, refusing it if it cannot be handled.
	 * @param request the request, signed
	 * @param response the response, to refuse the request with
	 * @return whether the request goes on to the handler
	 * @throws IOException if the refusal cannot be written
	 */
	protected boolean accepts(HttpServletRequest request, HttpServletResponse response) throws IOException {
		return true;
	}

	/**
	 * Answer a request with a problem.
	 * @param request the request
	 * @param response the response
	 * @param status the status
	 * @param slug the last segment of the problem's type
	 * @param title the problem's title
	 * @param detail the problem's detail
	 * @throws IOException if the problem cannot be written
	 */
	protected void refuse(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String slug,
			String title, String detail) throws IOException {
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", Problems.TYPE_PREFIX + slug);
		problem.put("title", title);
		problem.put("status", status.value());
		problem.put("detail", detail);
		problem.put("instance", request.getRequestURI());
		response.setStatus(status.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.getOutputStream().write(this.json.writeValueAsBytes(problem));
	}

}
