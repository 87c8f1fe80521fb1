package io.github.idempotency.sample.webhooks;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;

import org.springframework.stereotype.Service;

/**
 * Handles shop events. It is not idempotent by itself: every call records a run, which is why
 * the controller in front of it is {@code @Idempotent}.
 */
@Service
public class ShopWebhookHandler {

	private final ShopWebhookRepository runs;

	ShopWebhookHandler(ShopWebhookRepository runs) {
		this.runs = runs;
	}

	/**
	 * Handle an event.
	 * @param eventId the shop's event id
	 * @param topic the event's topic, or {@code null}
	 * @param payload the verified body
	 * @return the receipt of the event
	 */
	public ShopWebhookReceipt handle(String eventId, String topic, byte[] payload) {
		ShopWebhookReceipt receipt = new ShopWebhookReceipt(eventId, topic, sha256Hex(payload),
				Instant.now().truncatedTo(ChronoUnit.MILLIS));
		this.runs.recordRun(receipt);
		return receipt;
	}

	/**
	 * Return the events handled so far, with how many times each was handled.
	 * @return the events, first handled first
	 */
	public List<ProcessedShopEvent> processedEvents() {
		return this.runs.findProcessedEvents();
	}

	private static String sha256Hex(byte[] bytes) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is not available", ex);
		}
	}

}
