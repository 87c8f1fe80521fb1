package io.github.idempotency.sample.webhooks;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * Receives the shop's webhooks, which it may deliver more than once: the key is the shop's event
 * id, so a redelivery is answered with the first response and the handler runs once. Requests
 * reach this controller only once {@link ShopWebhookSignatureFilter} has verified their
 * signature.
 */
@RestController
public class ShopWebhookController {

	/**
	 * Name of the idempotent operation that handles shop webhooks.
	 */
	public static final String OPERATION = "shop-webhook";

	static final String PATH = "/webhooks/shop";

	private final ShopWebhookHandler handler;

	ShopWebhookController(ShopWebhookHandler handler) {
		this.handler = handler;
	}

	@Idempotent(operation = OPERATION, key = "'webhook:shop:' + #eventId")
	@PostMapping(PATH)
	public ShopWebhookReceipt receive(@RequestHeader(ShopWebhookSignatureFilter.EVENT_ID_HEADER) String eventId,
			@RequestHeader(name = "X-Shop-Topic", required = false) String topic, @RequestBody byte[] payload) {
		return this.handler.handle(eventId, topic, payload);
	}

	@GetMapping(PATH + "/events")
	public List<ProcessedShopEvent> events() {
		return this.handler.processedEvents();
	}

}
