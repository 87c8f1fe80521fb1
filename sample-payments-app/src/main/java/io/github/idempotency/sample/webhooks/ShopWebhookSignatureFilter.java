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
 * Refuses shop webhooks that are not signed with the shop's secret, or name no event, before the
 * request reaches the idempotent handler: a forged request never claims an event's key, so it
 * can neither run the handler nor block the genuine delivery. It runs before the starter's
 * filter and hands the body it read on to it.
 */
class ShopWebhookSignatureFilter extends OncePerRequestFilter {

	static final String EVENT_ID_HEADER = "X-Shop-Event-Id";

	static final String SIGNATURE_HEADER = "X-Shop-Hmac-Sha256";

	static final int MAX_BODY_BYTES = 1024 * 1024;

	static final int MAX_EVENT_ID_LENGTH = 200;

	private final ShopWebhookSignature signature;

	private final JsonMapper json;

	ShopWebhookSignatureFilter(ShopWebhookSignature signature, JsonMapper json) {
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
		if (!this.signature.matches(body, request.getHeader(SIGNATURE_HEADER))) {
			response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Shop-Hmac-Sha256");
			refuse(request, response, HttpStatus.UNAUTHORIZED, "invalid-webhook-signature",
					"Invalid webhook signature", "The " + SIGNATURE_HEADER
							+ " header is missing or is not the HMAC-SHA256 of the body with the shop's secret.");
			return;
		}
		String eventId = request.getHeader(EVENT_ID_HEADER);
		if (eventId == null || eventId.isBlank() || eventId.length() > MAX_EVENT_ID_LENGTH) {
			refuse(request, response, HttpStatus.BAD_REQUEST, "invalid-webhook-event-id", "Invalid webhook event id",
					"A webhook must name its event in the " + EVENT_ID_HEADER + " header, in 1 to "
							+ MAX_EVENT_ID_LENGTH + " characters.");
			return;
		}
		chain.doFilter(new CachedBodyRequest(request, body), response);
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String slug,
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
