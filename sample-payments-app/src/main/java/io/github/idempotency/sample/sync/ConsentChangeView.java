package io.github.idempotency.sample.sync;

import java.time.Instant;

/**
 * One entry of a user's consent history.
 *
 * @param id the entry id, increasing with time
 * @param purpose the purpose, such as {@code marketing}
 * @param granted whether consent was given or withdrawn
 * @param userVersion the user's version that recorded the change
 * @param recordedAt when the change was recorded
 */
public record ConsentChangeView(long id, String purpose, boolean granted, long userVersion, Instant recordedAt) {

	static ConsentChangeView of(ConsentChange change) {
		return new ConsentChangeView(change.getId(), change.getPurpose(), change.isGranted(), change.getUserVersion(),
				change.getRecordedAt());
	}

}
