package io.github.idempotency.docs.snippets.stores;

// tag::store-contract[]
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.testsupport.store.IdempotencyStoreContractTests;

class MyIdempotencyStoreTests extends IdempotencyStoreContractTests {

	private static final MyIdempotencyStore store = new MyIdempotencyStore(/* a real server */);

	@Override
	protected IdempotencyStore store() {
		return store;
	}

}
// end::store-contract[]
