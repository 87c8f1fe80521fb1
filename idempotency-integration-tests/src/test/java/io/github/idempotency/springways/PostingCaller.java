package io.github.idempotency.springways;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.github.idempotency.springways.SpringWaysApplication.Effects;

/**
 * Calls idempotent bean methods inside transactions of its own, as a transactional message
 * listener or service does.
 */
@Service
public class PostingCaller {

	private final Postings postings;

	private final Effects effects;

	PostingCaller(Postings postings, Effects effects) {
		this.postings = postings;
		this.effects = effects;
	}

	@Transactional
	public String post(String id) {
		return this.postings.post(id);
	}

	@Transactional
	public String postThenFail(String id) {
		this.postings.post(id);
		throw new CallerFailedException();
	}

	@Transactional
	public String postAtomically(String id, boolean reject) {
		String result = this.postings.postAtomically(id, reject);
		this.effects.record("caller", id);
		return result;
	}

	@Transactional
	public String postAtomicallyThenFail(String id) {
		this.postings.postAtomically(id, false);
		throw new CallerFailedException();
	}

	/**
	 * Posts, and records a refusal of the starter (in progress, reused key) in the same
	 * transaction instead of failing.
	 */
	@Transactional
	public String postAtomicallyOrRecordRefusal(String id, boolean reject) {
		try {
			return this.postings.postAtomically(id, reject);
		}
		catch (RuntimeException ex) {
			this.effects.record("refused", id);
			return ex.getClass().getSimpleName();
		}
	}

	/**
	 * The caller's transaction fails after the idempotent call returned.
	 */
	public static class CallerFailedException extends RuntimeException {

		CallerFailedException() {
			super("the caller failed after the idempotent call");
		}

	}

}
