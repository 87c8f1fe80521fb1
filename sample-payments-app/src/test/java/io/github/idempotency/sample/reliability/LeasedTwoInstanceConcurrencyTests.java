package io.github.idempotency.sample.reliability;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.idempotency.sample.reliability.DuplicateStorm.Payment;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrent duplicates of {@code POST /payments} in LEASED mode, spread over two application
 * instances on one PostgreSQL database, make one payment and one charge per key and are each
 * answered with the original, a byte-identical replay or an in-progress conflict (SPEC 6 and 10).
 */
class LeasedTwoInstanceConcurrencyTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("twoleased");

	static ReliabilityDatabase db;

	static SampleInstance first;

	static SampleInstance second;

	@BeforeAll
	static void startTwoInstances() {
		db = new ReliabilityDatabase(database);
		first = SampleInstance.start(database, "--idempotency.operations.create-payment.mode=LEASED",
				"--sample.gateway.latency=250ms");
		second = SampleInstance.start(database, "--idempotency.operations.create-payment.mode=LEASED",
				"--sample.gateway.latency=250ms");
	}

	@AfterAll
	static void stopInstances() {
		if (second != null) {
			second.close();
		}
		if (first != null) {
			first.close();
		}
	}

	@BeforeEach
	void clear() {
		db.payments().clear();
	}

	@Test
	void sixtyFourDuplicatesOverTwoInstancesMakeOnePaymentAndOneChargeAnsweredByOriginalReplayOrConflict()
			throws Exception {
		Map<Payment, DuplicateAnswers> answers = DuplicateAnswers
			.ofEveryKey(DuplicateStorm.send(List.of(first.http(), second.http()), 1, 64));
		answers.forEach((payment, tally) -> {
			System.out.printf("LEASED 1x64: %d original, %d replays, %d conflicts%n", tally.originals(),
					tally.replays(), tally.conflicts());
			tally.assertOneEffect(db, payment);
			tally.assertReplayedByEvery(List.of(first.http(), second.http()), payment);
		});
		assertThat(db.payments().payments()).isOne();
		assertThat(db.payments().charges()).isOne();
		assertThat(db.recordsInProgress()).isZero();
	}

	@Test
	void eightKeysWithEightDuplicatesEachOverTwoInstancesMakeOnePaymentAndOneChargePerKey() throws Exception {
		Map<Payment, DuplicateAnswers> answers = DuplicateAnswers
			.ofEveryKey(DuplicateStorm.send(List.of(first.http(), second.http()), 8, 8));
		answers.forEach((payment, tally) -> {
			System.out.printf("LEASED 8x8 %s: %d original, %d replays, %d conflicts%n", payment.key(),
					tally.originals(), tally.replays(), tally.conflicts());
			tally.assertOneEffect(db, payment);
			tally.assertReplayedByEvery(List.of(first.http(), second.http()), payment);
		});
		assertThat(db.payments().payments()).isEqualTo(8);
		assertThat(db.payments().charges()).isEqualTo(8);
		assertThat(db.recordsInProgress()).isZero();
	}

}
