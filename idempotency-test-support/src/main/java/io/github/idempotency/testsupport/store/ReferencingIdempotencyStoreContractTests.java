package io.github.idempotency.testsupport.store;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.ReferencingIdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The behaviour of a store that keeps references ({@link ReferencingIdempotencyStore}); a
 * store's tests run it from a nested class, as {@link SequencingIdempotencyStoreContractTests}
 * shows.
 */
public abstract class ReferencingIdempotencyStoreContractTests extends IdempotencyStoreContractSupport {

	@Override
	protected abstract ReferencingIdempotencyStore store();

	@Test
	void referencesAttachedToAClaimedKeyAreKeptWithItsRecord() {
		IdempotencyKey key = key("references");
		UUID token = claim(key, FINGERPRINT_A);
		store().addReference(key, "gateway_transaction", "tx-2", TTL);
		store().addReference(key, "gateway_transaction", "tx-1", TTL);
		store().addReference(key, "refund", "r-9", TTL);
		store().addReference(key, "gateway_transaction", "tx-1", TTL);
		Map<String, List<String>> expected = Map.of("gateway_transaction", List.of("tx-1", "tx-2"), "refund",
				List.of("r-9"));
		assertThat(store().references(key)).isEqualTo(expected);
		assertThat(List.copyOf(store().references(key).keySet())).containsExactly("gateway_transaction", "refund");
		assertThat(store().complete(key, token, response(201, bytes("charged")), TTL)).isTrue();
		assertThat(store().references(key)).isEqualTo(expected);
		assertThat(store().findByReference("gateway_transaction", "tx-2", 10)).containsExactly(key);
		assertThat(store().findByReference("refund", "r-9", 10)).containsExactly(key);
		assertThat(existing(store().claim(request(key, FINGERPRINT_A))).record().response().body())
			.isEqualTo(bytes("charged"));
	}

	@Test
	void aReferenceFindsEveryKeyItIsAttachedToOldestFirst() {
		String value = "tx-" + UUID.randomUUID();
		IdempotencyKey first = key("referenced-first");
		IdempotencyKey second = new IdempotencyKey(first.tenant() + "-other", "POST /refunds", "referenced-second");
		IdempotencyKey third = key("referenced-third");
		for (IdempotencyKey key : List.of(first, second, third)) {
			claim(key, FINGERPRINT_A);
			store().addReference(key, "gateway_transaction", value, TTL);
			// Read the clock after attaching: the next key is attached after this instant, which is
			// no earlier than this attachment, however long the attachment took.
			awaitStoreTimeAfter(storeTime());
		}
		assertThat(store().findByReference("gateway_transaction", value, 10)).containsExactly(first, second, third);
		assertThat(store().findByReference("gateway_transaction", value, 2)).containsExactly(first, second);
		assertThat(store().findByReference("gateway_transaction", value + "-other", 10)).isEmpty();
		assertThat(store().findByReference("refund", value, 10)).isEmpty();
		assertThat(store().references(key("referenced-none"))).isEmpty();
	}

	/**
	 * A reference names an effect of an attempt, such as a charge, that a transient failure after
	 * it does not undo: it stays with the released key and the retry that claims it again.
	 */
	@Test
	void referencesOutliveAReleaseAndTheRetryThatClaimsTheKeyAgain() {
		IdempotencyKey key = key("references-released");
		UUID first = claim(key, FINGERPRINT_A);
		store().addReference(key, "gateway_transaction", "tx-attempt-1", TTL);
		assertThat(store().release(key, first, "status 503")).isTrue();
		assertThat(store().references(key)).containsEntry("gateway_transaction", List.of("tx-attempt-1"));
		UUID second = claimed(store().claim(request(key, FINGERPRINT_A))).token();
		store().addReference(key, "gateway_transaction", "tx-attempt-2", TTL);
		assertThat(store().complete(key, second, response(201, bytes("second")), TTL)).isTrue();
		assertThat(store().references(key)).containsEntry("gateway_transaction",
				List.of("tx-attempt-1", "tx-attempt-2"));
		assertThat(store().findByReference("gateway_transaction", "tx-attempt-1", 10)).containsExactly(key);
	}

	/**
	 * A new request that claims a key whose record expired is another request: the references of
	 * the record it replaces are not its own.
	 */
	@Test
	void aNewRequestThatReplacesAnExpiredRecordDoesNotInheritItsReferences() {
		IdempotencyKey key = key("references-expired");
		UUID token = claim(key, FINGERPRINT_A);
		String value = "tx-" + UUID.randomUUID();
		store().addReference(key, "gateway_transaction", value, TTL);
		assertThat(store().complete(key, token, response(200, bytes("old")), shortTime())).isTrue();
		awaitExpiry(key);
		claimed(store().claim(request(key, FINGERPRINT_B)));
		assertThat(store().references(key)).isEmpty();
		assertThat(store().findByReference("gateway_transaction", value, 10)).isEmpty();
	}

	@Test
	void referenceValuesAreKeptExactly() {
		IdempotencyKey key = key("references-exact");
		claim(key, FINGERPRINT_A);
		List<String> values = List.of("a:b", "x=y", "{z}", "%3A", "\u65e5\u672c", " spaced ", "ref:gateway:1",
				"v".repeat(255));
		for (String value : values) {
			store().addReference(key, "odd.values-1_", value, TTL);
		}
		assertThat(store().references(key).get("odd.values-1_")).containsExactlyInAnyOrderElementsOf(values);
		for (String value : values) {
			assertThat(store().findByReference("odd.values-1_", value, 10)).as(value).containsExactly(key);
		}
	}

}
