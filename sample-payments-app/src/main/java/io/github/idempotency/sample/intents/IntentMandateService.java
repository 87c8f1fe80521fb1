package io.github.idempotency.sample.intents;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Gives intent mandates and looks them up: one mandate per user and intent, however often it is
 * asked for.
 */
@Service
public class IntentMandateService {

	private final IntentMandateRepository mandates;

	private final IntentHasher hasher;

	IntentMandateService(IntentMandateRepository mandates, IntentHasher hasher) {
		this.mandates = mandates;
		this.hasher = hasher;
	}

	/**
	 * Give a mandate for an intent, or return the one the user already gave for the same intent.
	 * @param request the request as received, with a valid user (see {@link IntentHasher#keyFor})
	 * @return the mandate, and whether this call gave it
	 * @throws InvalidIntentException if the intent is invalid
	 */
	@Transactional
	public MandateGiven give(CreateIntentMandateRequest request) {
		Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
		ValidIntent intent = ValidIntent.from(request, now);
		String hash = this.hasher.hash(request);
		IntentMandate existing = this.mandates.findByUserAndHash(request.userId(), hash).orElse(null);
		if (existing != null) {
			return new MandateGiven(existing, false);
		}
		IntentMandate mandate = new IntentMandate("im_" + UUID.randomUUID().toString().replace("-", ""),
				request.userId(), intent.description(), intent.merchants(), intent.skus(), intent.maxAmount(),
				intent.currency(), intent.requiresRefundability(), intent.userCartConfirmationRequired(), hash, now,
				intent.expiresAt());
		this.mandates.insert(mandate);
		return new MandateGiven(mandate, true);
	}

	/**
	 * Return a mandate.
	 * @param id the mandate id
	 * @return the mandate, expired or not
	 * @throws IntentMandateNotFoundException if there is no such mandate
	 */
	@Transactional(readOnly = true)
	public IntentMandate find(String id) {
		return this.mandates.findById(id).orElseThrow(() -> new IntentMandateNotFoundException(id));
	}

	/**
	 * The mandate a request gets.
	 *
	 * @param mandate the mandate
	 * @param created whether the request gave it, rather than finding it
	 */
	public record MandateGiven(IntentMandate mandate, boolean created) {

	}

}
