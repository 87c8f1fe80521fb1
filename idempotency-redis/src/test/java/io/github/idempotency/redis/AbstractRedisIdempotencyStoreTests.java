package io.github.idempotency.redis;

import java.time.Duration;

import org.junit.jupiter.api.Nested;

import io.github.idempotency.store.ReferencingIdempotencyStore;
import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.testsupport.store.IdempotencyStoreContractTests;
import io.github.idempotency.testsupport.store.ReferencingIdempotencyStoreContractTests;
import io.github.idempotency.testsupport.store.SequencingIdempotencyStoreContractTests;

/**
 * {@link RedisIdempotencyStore} against the published store contract and its sequence and
 * reference parts.
 */
abstract class AbstractRedisIdempotencyStoreTests extends IdempotencyStoreContractTests {

	@Override
	protected abstract RedisIdempotencyStore store();

	@Nested
	class Sequences extends SequencingIdempotencyStoreContractTests {

		@Override
		protected SequencingIdempotencyStore store() {
			return AbstractRedisIdempotencyStoreTests.this.store();
		}

		@Override
		protected Duration shortTime() {
			return AbstractRedisIdempotencyStoreTests.this.shortTime();
		}

	}

	@Nested
	class References extends ReferencingIdempotencyStoreContractTests {

		@Override
		protected ReferencingIdempotencyStore store() {
			return AbstractRedisIdempotencyStoreTests.this.store();
		}

		@Override
		protected Duration shortTime() {
			return AbstractRedisIdempotencyStoreTests.this.shortTime();
		}

	}

}
