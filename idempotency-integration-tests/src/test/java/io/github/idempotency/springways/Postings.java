package io.github.idempotency.springways;

import org.springframework.stereotype.Service;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.springways.SpringWaysApplication.Effects;

/**
 * Idempotent bean methods, as a message listener calls them: LEASED and ATOMIC postings.
 */
@Service
public class Postings {

	private final Effects effects;

	Postings(Effects effects) {
		this.effects = effects;
	}

	@Idempotent(operation = "leased-posting", key = "'posting:' + #id")
	public String post(String id) {
		this.effects.record("leased-posting", id);
		return "posted " + id;
	}

	@Idempotent(operation = "atomic-posting", key = "'posting:' + #id", mode = IdempotencyMode.ATOMIC)
	public String postAtomically(String id, boolean reject) {
		this.effects.record("atomic-posting", id);
		if (reject) {
			throw new PostingRejectedException(id);
		}
		return "posted " + id;
	}

	/**
	 * A final failure: configured in {@code idempotency.classification.final-exceptions}.
	 */
	public static class PostingRejectedException extends RuntimeException {

		PostingRejectedException(String id) {
			super("Posting " + id + " is rejected");
		}

	}

}
