package io.github.idempotency.sample.reliability;

import java.util.function.Function;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} of the packaged application in LEASED mode at each point of a payment, then a
 * restart: the key stays claimed until its lease runs out, a retry then takes it over and the
 * payment ends with exactly one charge, thanks to the gateway's idempotency (SPEC 6 and 10).
 * Subclasses choose the store.
 */
abstract class LeasedProcessCrashScenarios extends ProcessCrashScenarios {

	/**
	 * Scenarios on a store.
	 * @param name a short name for the database and the logs
	 * @param redisRecords the Redis the records are kept in, or {@code null} for the database
	 */
	LeasedProcessCrashScenarios(String name, Supplier<RedisRecords> redisRecords) {
		super("LEASED", name, redisRecords);
	}

	/**
	 * Scenarios on a store and a database.
	 * @param name a short name for the database and the logs
	 * @param redisRecords the Redis the records are kept in, or {@code null} for the database
	 * @param databases creates the database from a name
	 */
	LeasedProcessCrashScenarios(String name, Supplier<RedisRecords> redisRecords,
			Function<String, SampleDatabase> databases) {
		super("LEASED", name, redisRecords, databases);
	}

	@Test
	void retryAfterKillBeforeTheGatewayCallTakesTheKeyOverAndChargesThePendingPaymentOnce() {
		Crash crash = crashedAt(Window.BEFORE_CHARGE);
		assertThat(crash.record()).containsEntry("status", "IN_PROGRESS");
		assertThat(crash.payment()).containsEntry("status", "PENDING");
		assertThat(crash.charge()).isNull();
		JsonNode payment = assertRetryChargedOnce(crash, retry(crash), 1);
		assertThat(payment.get("id").asLong()).isEqualTo(crash.payment().get("id"));
		assertTakenOver(crash);
	}

	@Test
	void retryAfterKillOnceTheGatewayChargedTakesTheKeyOverAndSettlesWithTheSameCharge() {
		Crash crash = crashedAt(Window.AFTER_CHARGE);
		assertThat(crash.record()).containsEntry("status", "IN_PROGRESS");
		assertThat(crash.payment()).containsEntry("status", "PENDING");
		assertThat(crash.charge()).containsEntry("attempts", 1);
		JsonNode payment = assertRetryChargedOnce(crash, retry(crash), 2);
		assertThat(payment.get("id").asLong()).isEqualTo(crash.payment().get("id"));
		assertThat(payment.get("gatewayChargeId").asString()).isEqualTo(crash.charge().get("id"));
		assertTakenOver(crash);
	}

	@Test
	void retryAfterKillOnceThePaymentSettledTakesTheKeyOverAndAnswersWithoutCallingTheGatewayAgain() {
		Crash crash = crashedAt(Window.AFTER_SETTLE);
		assertThat(crash.record()).containsEntry("status", "IN_PROGRESS");
		assertThat(crash.payment()).containsEntry("status", "SUCCEEDED");
		assertThat(crash.charge()).containsEntry("attempts", 1);
		JsonNode payment = assertRetryChargedOnce(crash, retry(crash), 1);
		assertThat(payment.get("id").asLong()).isEqualTo(crash.payment().get("id"));
		assertThat(payment.get("gatewayChargeId").asString()).isEqualTo(crash.charge().get("id"));
		assertTakenOver(crash);
	}

	private void assertTakenOver(Crash crash) {
		assertThat(this.db.recordOf(crash.key()).get("fencing_token")).isNotNull()
			.isNotEqualTo(crash.record().get("fencing_token"));
	}

}
