package io.github.idempotency.sample.webhooks;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses shop webhooks that are not signed with the shop's secret, or name no event, before the
 * request can claim the event's key.
 */
class ShopWebhookSignatureFilter extends SignedWebhookFilter {

	static final String EVENT_ID_HEADER = "X-Shop-Event-Id";

	static final String SIGNATURE_HEADER = "X-Shop-Hmac-Sha256";

	static final int MAX_EVENT_ID_LENGTH = 200;

	ShopWebhookSignatureFilter(WebhookSignature signature, JsonMapper json) {
		super("shop", "Shop-Hmac-Sha256", SIGNATURE_HEADER, signature, json);
	}

	@Override
	protected boolean accepts(HttpServletRequest request, HttpServletResponse response) throws IOException {
		String eventId = request.getHeader(EVENT_ID_HEADER);
		if (eventId == null || eventId.isBlank() || eventId.length() > MAX_EVENT_ID_LENGTH) {
			refuse(request, response, HttpStatus.BAD_REQUEST, "invalid-webhook-event-id", "Invalid webhook event id",
					"A webhook must name its event in the " + EVENT_ID_HEADER + " header, in 1 to "
							+ MAX_EVENT_ID_LENGTH + " characters.");
			return false;
		}
		return true;
	}

}
