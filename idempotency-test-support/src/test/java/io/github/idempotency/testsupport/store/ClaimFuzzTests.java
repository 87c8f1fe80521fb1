package io.github.idempotency.testsupport.store;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ClaimRequest;
import io.github.idempotency.store.ClaimResult;
import io.github.idempotency.store.IdempotencyRecord;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.StoredResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract test's fuzz on a store that fails every call.
 */
class ClaimFuzzTests {

	@Test
	void aStoreThatFailsEveryCallEndsTheFuzzAtItsFirstViolationInsteadOfAtTheDeadline() {
		IdempotencyKey[] keys = { new IdempotencyKey("tenant", "fuzz", "k") };
		ClaimFuzz fuzz = new ClaimFuzz(new FailingStore(), keys, "a", "b", Duration.ofSeconds(1));
		fuzz.run(400, System.nanoTime() + Duration.ofMinutes(10).toNanos());
		assertThat(fuzz.violations).hasSize(1).first().asString().contains("a store that fails");
	}

	private static final class FailingStore implements IdempotencyStore {

		@Override
		public ClaimResult claim(ClaimRequest request) {
			throw new IllegalStateException("a store that fails");
		}

		@Override
		public boolean complete(IdempotencyKey key, UUID token, StoredResponse response, Duration ttl) {
			throw new IllegalStateException("a store that fails");
		}

		@Override
		public boolean release(IdempotencyKey key, UUID token) {
			throw new IllegalStateException("a store that fails");
		}

		@Override
		public boolean extendLease(IdempotencyKey key, UUID token, Duration lease) {
			throw new IllegalStateException("a store that fails");
		}

		@Override
		public Optional<IdempotencyRecord> find(IdempotencyKey key) {
			throw new IllegalStateException("a store that fails");
		}

	}

}
