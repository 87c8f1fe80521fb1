package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.github.idempotency.springways.PostingCaller.CallerFailedException;
import io.github.idempotency.springways.Postings.PostingRejectedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * What is stored when, for each transaction arrangement: an ATOMIC handler whose transaction
 * fails, and LEASED and ATOMIC bean methods inside their caller's transaction.
 */
class TransactionArrangementTests extends SpringWaysTest {

	@Autowired
	PostingCaller caller;

	@Autowired
	Postings postings;

	@Test
	void atomicHandlerWhoseTransactionIsRollbackOnlyStoresNothingAndReleasesTheKey() {
		String value = unique();
		HttpResponse<byte[]> first = http().post("/swallowed").key(value).json(json(value)).send();
		assertThat(first.statusCode()).isGreaterThanOrEqualTo(500);
		assertThat(this.effects.count("swallowed", value)).isZero();
		assertThat(records(value)).isZero();
		HttpResponse<byte[]> retry = http().post("/swallowed").key(value).json(json(value)).send();
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(retry.statusCode()).isGreaterThanOrEqualTo(500);
	}

	@Test
	void leasedBeanMethodInACallerTransactionThatRollsBackRunsAgainOnRedelivery() {
		String id = unique();
		assertThatExceptionOfType(CallerFailedException.class).isThrownBy(() -> this.caller.postThenFail(id));
		assertThat(this.effects.count("leased-posting", id)).isZero();
		assertThat(records(id)).isZero();
		assertThat(this.caller.post(id)).isEqualTo("posted " + id);
		assertThat(this.effects.count("leased-posting", id)).isOne();
		assertThat(status(id)).isEqualTo("COMPLETED");
	}

	@Test
	void leasedBeanMethodInACallerTransactionIsStoredWhenTheCallerCommits() {
		String id = unique();
		assertThat(this.caller.post(id)).isEqualTo("posted " + id);
		assertThat(status(id)).isEqualTo("COMPLETED");
		assertThat(this.caller.post(id)).isEqualTo("posted " + id);
		assertThat(this.postings.post(id)).isEqualTo("posted " + id);
		assertThat(this.effects.count("leased-posting", id)).isOne();
	}

	@Test
	void atomicBeanMethodWithAFinalFailureInACallerTransactionNeitherDeadlocksNorStores() {
		String id = unique();
		assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatExceptionOfType(
				PostingRejectedException.class).isThrownBy(() -> this.caller.postAtomically(id, true)));
		assertThat(this.effects.count("atomic-posting", id)).isZero();
		assertThat(records(id)).isZero();
	}

	@Test
	void atomicBeanMethodJoinsTheCallerTransactionAndItsReplayDoesNotPoisonTheNextCaller() {
		String id = unique();
		assertThat(this.caller.postAtomically(id, false)).isEqualTo("posted " + id);
		assertThat(status(id)).isEqualTo("COMPLETED");
		assertThat(this.caller.postAtomically(id, false)).isEqualTo("posted " + id);
		assertThat(this.effects.count("atomic-posting", id)).isOne();
		assertThat(this.effects.count("caller", id)).isEqualTo(2);
	}

	@Test
	void atomicBeanMethodIsUndoneWithTheCallerTransaction() {
		String id = unique();
		assertThatExceptionOfType(CallerFailedException.class)
			.isThrownBy(() -> this.caller.postAtomicallyThenFail(id));
		assertThat(this.effects.count("atomic-posting", id)).isZero();
		assertThat(records(id)).isZero();
		assertThat(this.caller.postAtomically(id, false)).isEqualTo("posted " + id);
		assertThat(this.effects.count("atomic-posting", id)).isOne();
	}

	@Test
	void reusedKeyRefusedInsideACallerTransactionLetsTheCallerCommitItsOwnWork() {
		String id = unique();
		assertThat(this.caller.postAtomically(id, false)).isEqualTo("posted " + id);
		assertThat(this.caller.postAtomicallyOrRecordRefusal(id, true))
			.isEqualTo("IdempotencyKeyMismatchException");
		assertThat(this.effects.count("refused", id)).isOne();
		assertThat(this.effects.count("atomic-posting", id)).isOne();
	}

}
