package io.github.idempotency.testsupport.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.idempotency.store.SequencingIdempotencyStore;
import io.github.idempotency.store.SequencingIdempotencyStore.SequenceAdvance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The behaviour of a store that keeps sequence numbers ({@link SequencingIdempotencyStore}),
 * concurrency included; a store's tests run it from a nested class:
 *
 * <pre class="code">
 * &#64;Nested
 * class Sequences extends SequencingIdempotencyStoreContractTests {
 *
 *     &#64;Override
 *     protected SequencingIdempotencyStore store() {
 *         return store;
 *     }
 *
 * }
 * </pre>
 */
public abstract class SequencingIdempotencyStoreContractTests extends IdempotencyStoreContractSupport {

	@Override
	protected abstract SequencingIdempotencyStore store();

	@Test
	void sequenceNumbersOfAScopeAreAcceptedWhileTheyIncrease() {
		assertAccepted("increasing", 1);
		assertAccepted("increasing", 2);
		assertAccepted("increasing", 7);
		assertAccepted("increasing", 1000);
	}

	/**
	 * The same number again, such as a retry after a transient failure, is accepted.
	 */
	@Test
	void theSameSequenceNumberAgainIsAccepted() {
		assertAccepted("same", 0);
		assertAccepted("same", 0);
		assertAccepted("same", 5);
		assertAccepted("same", 5);
	}

	@Test
	void aLowerSequenceNumberIsRefusedWithTheHighestNumberOfItsScope() {
		assertAccepted("lower", 5);
		assertThat(advance("lower", 3, TTL)).isEqualTo(new SequenceAdvance(false, 5));
		assertThat(advance("lower", 4, TTL)).isEqualTo(new SequenceAdvance(false, 5));
		assertThat(advance("lower", 0, TTL)).isEqualTo(new SequenceAdvance(false, 5));
		assertAccepted("lower", 6);
		assertThat(advance("lower", 5, TTL)).isEqualTo(new SequenceAdvance(false, 6));
	}

	@Test
	void sequenceScopesBelongToTheirTenant() {
		assertAccepted("shared scope", 10);
		assertThat(store().advanceSequence(tenant() + "-other", "shared scope", 1, TTL))
			.isEqualTo(new SequenceAdvance(true, 1));
		assertAccepted("another scope", 1);
		assertThat(advance("shared scope", 9, TTL)).isEqualTo(new SequenceAdvance(false, 10));
	}

	/**
	 * Numbers compare exactly, even past what a double holds exactly (2^53).
	 */
	@Test
	void largeSequenceNumbersCompareExactly() {
		long large = (1L << 62) + 1;
		assertAccepted("large", large);
		assertThat(advance("large", large - 1, TTL)).isEqualTo(new SequenceAdvance(false, large));
		assertAccepted("large", large);
		assertAccepted("large", Long.MAX_VALUE);
		assertThat(advance("large", Long.MAX_VALUE - 1, TTL)).isEqualTo(new SequenceAdvance(false, Long.MAX_VALUE));
	}

	@Test
	void sequenceScopesWhoseNamesJoinAlikeNeverCollide() {
		List<String> scopes = List.of("a:b", "a", "a%3Ab", "{a}", "a}", "{", "\u65e5\u672c", "A:B", "a:b ");
		for (int i = 0; i < scopes.size(); i++) {
			assertAccepted(scopes.get(i), 100 + i);
		}
		for (int i = 0; i < scopes.size(); i++) {
			assertThat(advance(scopes.get(i), 0, TTL)).as(scopes.get(i)).isEqualTo(new SequenceAdvance(false, 100 + i));
		}
		assertThat(store().advanceSequence(tenant() + ":a", "b", 1, TTL)).isEqualTo(new SequenceAdvance(true, 1));
	}

	/**
	 * A scope is kept for the TTL after its last accepted number, and then forgotten.
	 */
	@Test
	void anExpiredSequenceScopeForgetsItsHighestNumber() {
		assertThat(advance("expiring", 100, shortTime())).isEqualTo(new SequenceAdvance(true, 100));
		// The scope was advanced before this reading of the store's clock: it expires by then plus its TTL.
		awaitStoreTimeAfter(storeTime().plus(shortTime()));
		assertAccepted("expiring", 1);
		assertThat(advance("expiring", 0, TTL)).isEqualTo(new SequenceAdvance(false, 1));
	}

	/**
	 * Threads advance one scope at once, each through its own share of shuffled numbers: the
	 * highest number is always accepted and ends up the scope's, every refusal reports a higher
	 * number than its own, and the highest number a thread sees never goes down.
	 */
	@Test
	void concurrentAdvancesOfOneScopeLetTheHighestNumberWin() throws Exception {
		int perThread = 8;
		for (int round = 0; round < 5; round++) {
			String scope = "race-" + round;
			List<Long> numbers = new ArrayList<>();
			for (long n = 1; n <= (long) threads() * perThread; n++) {
				numbers.add(n);
			}
			Collections.shuffle(numbers);
			List<List<SequenceAdvance>> results = Race.run(threads(), (thread) -> {
				List<SequenceAdvance> seen = new ArrayList<>();
				for (int i = 0; i < perThread; i++) {
					seen.add(advance(scope, numbers.get(thread * perThread + i), TTL));
				}
				return seen;
			});
			long max = (long) threads() * perThread;
			for (int thread = 0; thread < results.size(); thread++) {
				List<SequenceAdvance> seen = results.get(thread);
				for (int i = 0; i < perThread; i++) {
					long number = numbers.get(thread * perThread + i);
					SequenceAdvance advance = seen.get(i);
					if (advance.accepted()) {
						assertThat(advance.highest()).isEqualTo(number);
					}
					else {
						assertThat(advance.highest()).as("highest seen when %d was refused", number)
							.isGreaterThan(number)
							.isLessThanOrEqualTo(max);
					}
					if (number == max) {
						assertThat(advance.accepted()).as("the highest number, %d", max).isTrue();
					}
				}
				assertThat(seen).extracting(SequenceAdvance::highest).isSorted();
			}
			assertThat(advance(scope, 0, TTL)).isEqualTo(new SequenceAdvance(false, max));
		}
	}

	/**
	 * Advance a scope of this test's own tenant.
	 * @param scope the scope
	 * @param sequence the sequence number
	 * @param ttl how long the scope is kept
	 * @return the answer of the store
	 */
	protected final SequenceAdvance advance(String scope, long sequence, Duration ttl) {
		return store().advanceSequence(tenant(), scope, sequence, ttl);
	}

	private void assertAccepted(String scope, long sequence) {
		assertThat(advance(scope, sequence, TTL)).as("advance of %s to %d", scope, sequence)
			.isEqualTo(new SequenceAdvance(true, sequence));
	}

}
