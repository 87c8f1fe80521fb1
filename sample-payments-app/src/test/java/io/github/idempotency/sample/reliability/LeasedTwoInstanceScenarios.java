package io.github.idempotency.sample.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.idempotency.sample.reliability.DuplicateStorm.Payment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrent duplicates of {@code POST /payments} in LEASED mode, spread over two application
 * instances on one database and one idempotency store, make one payment and one charge per key and
 * are each answered with the original, a byte-identical replay or an in-progress conflict (SPEC 6
 * and 10). Subclasses choose the store and the database (PostgreSQL unless they say).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LeasedTwoInstanceScenarios {

	private final String name;

	private final Supplier<RedisRecords> redisRecords;

	private final Function<String, SampleDatabase> databases;

	private SampleDatabase database;

	private RedisRecords redis;

	private ReliabilityDatabase db;

	private SampleInstance first;

	private SampleInstance second;

	/**
	 * Scenarios on a store.
	 * @param name a short name for the database and the output
	 * @param redisRecords the Redis the records are kept in, or {@code null} for the database
	 */
	LeasedTwoInstanceScenarios(String name, Supplier<RedisRecords> redisRecords) {
		this(name, redisRecords, SampleDatabase::postgres);
	}

	/**
	 * Scenarios on a store and a database.
	 * @param name a short name for the database and the output
	 * @param redisRecords the Redis the records are kept in, or {@code null} for the database
	 * @param databases creates the database from a name
	 */
	LeasedTwoInstanceScenarios(String name, Supplier<RedisRecords> redisRecords,
			Function<String, SampleDatabase> databases) {
		this.name = name;
		this.redisRecords = redisRecords;
		this.databases = databases;
	}

	@BeforeAll
	void startTwoInstances() {
		this.database = this.databases.apply(this.name);
		this.redis = (this.redisRecords != null) ? this.redisRecords.get() : null;
		this.db = this.database.reader(this.redis);
		List<String> arguments = new ArrayList<>(
				List.of("--idempotency.operations.create-payment.mode=LEASED", "--sample.gateway.latency=250ms"));
		if (this.redis != null) {
			arguments.addAll(this.redis.arguments());
		}
		this.first = this.database.startInstance(arguments.toArray(String[]::new));
		this.second = this.database.startInstance(arguments.toArray(String[]::new));
	}

	@AfterAll
	void stopInstances() {
		if (this.second != null) {
			this.second.close();
		}
		if (this.first != null) {
			this.first.close();
		}
		if (this.redis != null) {
			this.redis.close();
		}
	}

	@BeforeEach
	void clear() {
		this.db.payments().clear();
		if (this.redis != null) {
			this.redis.clear();
		}
	}

	@Test
	void sixtyFourDuplicatesOverTwoInstancesMakeOnePaymentAndOneChargeAnsweredByOriginalReplayOrConflict()
			throws Exception {
		Map<Payment, DuplicateAnswers> answers = DuplicateAnswers
			.ofEveryKey(DuplicateStorm.send(List.of(this.first.http(), this.second.http()), 1, 64));
		answers.forEach((payment, tally) -> {
			System.out.printf("LEASED %s 1x64: %d original, %d replays, %d conflicts%n", this.name, tally.originals(),
					tally.replays(), tally.conflicts());
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
			System.out.printf("LEASED %s 8x8 %s: %d original, %d replays, %d conflicts%n", this.name, payment.key(),
					tally.originals(), tally.replays(), tally.conflicts());
			tally.assertOneEffect(this.db, payment);
			tally.assertReplayedByEvery(List.of(this.first.http(), this.second.http()), payment);
		});
		assertThat(this.db.payments().payments()).isEqualTo(8);
		assertThat(this.db.payments().charges()).isEqualTo(8);
		assertThat(this.db.recordsInProgress()).isZero();
	}

}
