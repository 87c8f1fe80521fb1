package io.github.idempotency.sample.intents;

import org.junit.jupiter.api.Test;

import io.github.idempotency.sample.support.Duplicates;
import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.TableLock;

import static io.github.idempotency.sample.intents.IntentMandateIdempotencyTests.EXPIRY;
import static io.github.idempotency.sample.intents.IntentMandateIdempotencyTests.intent;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same intent sent concurrently, from real threads and with its lists in different orders,
 * while a table lock holds the first inside its insert: in ATOMIC mode the others wait for the
 * first to commit and replay it, and one mandate is given.
 */
class ConcurrentIntentMandateTests extends PostgresFlowTest {

	private static final int REQUESTS = 8;

	@Test
	void concurrentRequestsForOneIntentGiveOneMandate() throws Exception {
		String[] orders = { "[\"m-1\",\"m-2\",\"m-3\"]", "[\"m-3\",\"m-2\",\"m-1\"]", "[\"m-2\",\"m-3\",\"m-1\"]" };
		Duplicates requests;
		try (TableLock lock = TableLock.exclusive(database(), "intent_mandate")) {
			requests = Duplicates.send(REQUESTS, (i) -> this.http.post("/intent-mandates")
				.json(intent("u-concurrent", orders[i % orders.length], "[]", 9900, "EUR", EXPIRY.toString()))
				.send());
			lock.awaitWaiter();
			assertThat(requests.answered()).isZero();
		}
		requests.assertOneOriginalAndOnlyReplaysOrConflicts(201);
		assertThat(this.db.intentMandates()).isOne();
	}

}
