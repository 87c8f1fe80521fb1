package io.github.idempotency.sample.reliability;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.idempotency.sample.reliability.DuplicateStorm.Payment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrent duplicates of {@code POST /payments} in ATOMIC mode, spread over two application
 * instances on one database, make one payment and one charge per key: every duplicate
 * waits in the database for the first to commit and replays its answer, so none is refused
 * (SPEC 6 and 10). Subclasses choose the database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AtomicTwoInstanceScenarios {

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

	private final Function<String, SampleDatabase> databases;

	private final String name;

	private ReliabilityDatabase db;

	private SampleInstance first;

	private SampleInstance second;

	/**
	 * The storms on a database.
	 * @param name a short name for the database
	 * @param databases creates the database from a name
	 */
	AtomicTwoInstanceScenarios(String name, Function<String, SampleDatabase> databases) {
		this.name = name;
		this.databases = databases;
	}

	@BeforeAll
	void startTwoInstances() {
		SampleDatabase database = this.databases.apply(this.name);
		this.db = database.reader(null);
		this.first = database.startInstance(ARGUMENTS);
		this.second = database.startInstance(ARGUMENTS);
	}

	@AfterAll
	void stopInstances() {
		if (this.second != null) {
			this.second.close();
		}
		if (this.first != null) {
			this.first.close();
		}
	}

	@BeforeEach
	void clear() {
		this.db.payments().clear();
	}

	@Test
	void sixtyFourDuplicatesOverTwoInstancesMakeOnePaymentAndOneChargeAndAllGetTheOriginalOrItsReplay()
			throws Exception {
		Map<Payment, DuplicateAnswers> answers = DuplicateAnswers
			.ofEveryKey(DuplicateStorm.send(List.of(this.first.http(), this.second.http()), 1, 64));
		answers.forEach((payment, tally) -> {
			System.out.printf("ATOMIC %s 1x64: %d original, %d replays, %d conflicts%n", this.name,
					tally.originals(), tally.replays(), tally.conflicts());
			assertThat(tally.replays()).isEqualTo(63);
			assertThat(tally.conflicts()).isZero();
			tally.assertOneEffect(this.db, payment);
			tally.assertReplayedByEvery(List.of(this.first.http(), this.second.http()), payment);
		});
		assertThat(this.db.payments().payments()).isOne();
		assertThat(this.db.payments().charges()).isOne();
		assertThat(this.db.recordsInProgress()).isZero();
	}

	@Test
	void eightKeysWithEightDuplicatesEachOverTwoInstancesMakeOnePaymentAndOneChargePerKey() throws Exception {
		Map<Payment, DuplicateAnswers> answers = DuplicateAnswers
			.ofEveryKey(DuplicateStorm.send(List.of(this.first.http(), this.second.http()), 8, 8));
		answers.forEach((payment, tally) -> {
			System.out.printf("ATOMIC %s 8x8 %s: %d original, %d replays, %d conflicts%n", this.name, payment.key(),
					tally.originals(), tally.replays(), tally.conflicts());
			assertThat(tally.replays()).isEqualTo(7);
			assertThat(tally.conflicts()).isZero();
			tally.assertOneEffect(this.db, payment);
			tally.assertReplayedByEvery(List.of(this.first.http(), this.second.http()), payment);
		});
		assertThat(this.db.payments().payments()).isEqualTo(8);
		assertThat(this.db.payments().charges()).isEqualTo(8);
		assertThat(this.db.recordsInProgress()).isZero();
	}

}
