package io.github.idempotency.docs.snippets.stores;

// tag::store-contract[]
import org.junit.jupiter.api.Nested;

import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.testsupport.store.IdempotencyStoreContractTests;
import io.github.idempotency.testsupport.store.SequencingIdempotencyStoreContractTests;

class MyIdempotencyStoreTests extends IdempotencyStoreContractTests {

	private static final MyIdempotencyStore store = new MyIdempotencyStore(/* a real server */);

	@Override
	protected IdempotencyStore store() {
		return store;
	}

	// only if it keeps sequence numbers (ReferencingIdempotencyStoreContractTests likewise)
	@Nested
	class Sequences extends SequencingIdempotencyStoreContractTests {

		@Override
		protected SequencingIdempotencyStore store() {
			return store;
		}

	}

}
// end::store-contract[]
