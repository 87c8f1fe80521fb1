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
 * Concurrent duplicates of {@code POST /payments} in ATOMIC mode, spread over two application
 * instances on one PostgreSQL database, make one payment and one charge per key: every duplicate
 * waits in the database for the first to commit and replays its answer, so none is refused
 * (SPEC 6 and 10).
 */
class AtomicTwoInstanceConcurrencyTests {

	/**
	 * In ATOMIC mode a duplicate waits for the first inside the database, holding a pooled
	 * connection, and the first needs a second connection for the gateway's own transaction: so
	 * each instance serves fewer requests at once than its pool has connections. With Tomcat's 200
	 * threads and the default pool of 10, the duplicates take every connection and the first waits
	 * for one until the pool gives up after 30 seconds, failing most of the storm.
	 */
	private static final String[] ARGUMENTS = { "--idempotency.operations.create-payment.mode=ATOMIC",
			"--sample.gateway.latency=250ms", "--server.tomcat.threads.max=12",
			"--spring.datasource.hikari.maximum-pool-size=14" };

	static final PostgresTestDatabase database = PostgresTestDatabase.create("twoatomic");

	static ReliabilityDatabase db;

	static SampleInstance first;

	static SampleInstance second;

	@BeforeAll
	static void startTwoInstances() {
		db = new ReliabilityDatabase(database);
		first = SampleInstance.start(database, ARGUMENTS);
		second = SampleInstance.start(database, ARGUMENTS);
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
	void sixtyFourDuplicatesOverTwoInstancesMakeOnePaymentAndOneChargeAndAllGetTheOriginalOrItsReplay()
			throws Exception {
		Map<Payment, DuplicateAnswers> answers = DuplicateAnswers
			.ofEveryKey(DuplicateStorm.send(List.of(first.http(), second.http()), 1, 64));
		answers.forEach((payment, tally) -> {
			System.out.printf("ATOMIC 1x64: %d original, %d replays, %d conflicts%n", tally.originals(),
					tally.replays(), tally.conflicts());
			assertThat(tally.replays()).isEqualTo(63);
			assertThat(tally.conflicts()).isZero();
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
			System.out.printf("ATOMIC 8x8 %s: %d original, %d replays, %d conflicts%n", payment.key(),
					tally.originals(), tally.replays(), tally.conflicts());
			assertThat(tally.replays()).isEqualTo(7);
			assertThat(tally.conflicts()).isZero();
			tally.assertOneEffect(db, payment);
			tally.assertReplayedByEvery(List.of(first.http(), second.http()), payment);
		});
		assertThat(db.payments().payments()).isEqualTo(8);
		assertThat(db.payments().charges()).isEqualTo(8);
		assertThat(db.recordsInProgress()).isZero();
	}

}
