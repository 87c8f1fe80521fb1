package io.github.idempotency.sample.sessions;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.Duplicates;
import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.TableLock;

import static io.github.idempotency.sample.sessions.SessionCarts.OPERATION;
import static io.github.idempotency.sample.sessions.SessionCarts.STALE;
import static io.github.idempotency.sample.sessions.SessionCarts.cartAfter;
import static io.github.idempotency.sample.sessions.SessionCarts.key;
import static io.github.idempotency.sample.sessions.SessionCarts.newSession;
import static io.github.idempotency.sample.sessions.SessionCarts.numbers;
import static io.github.idempotency.sample.sessions.SessionCarts.patch;
import static io.github.idempotency.sample.sessions.SessionCarts.update;
import static io.github.idempotency.sample.support.Duplicates.isReplayOf;
import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cart updates of one session sent at once from real threads: duplicates of an update apply it
 * once, and updates with shuffled numbers apply exactly the accepted ones, in increasing order.
 */
class ConcurrentSessionCartTests extends PostgresFlowTest {

	private static final int DUPLICATES = 8;

	private static final int UPDATES = 32;

	@Test
	void concurrentDuplicatesOfAnUpdateApplyItOnce() throws Exception {
		String session = newSession(this.http);
		Duplicates duplicates;
		try (TableLock lock = TableLock.exclusive(database(), "session_cart_update")) {
			duplicates = Duplicates.send(DUPLICATES, (i) -> patch(this.http, session, update(1)));
			lock.awaitWaiter();
			assertThat(duplicates.answered()).isLessThan(DUPLICATES);
		}
		HttpResponse<byte[]> original = duplicates.assertOneOriginalAndOnlyReplaysOrConflicts(200);
		assertThat(this.db.cartUpdates(session)).containsExactly(1L);
		assertThat(this.db.cartItems(session)).isEqualTo(cartAfter(List.of(1L)));
		assertThat(isReplayOf(patch(this.http, session, update(1)), original)).isTrue();
	}

	/**
	 * 32 updates of a session, their numbers shuffled, sent at once: the highest number is always
	 * applied, every refused update is answered 409 stale-sequence and left nothing behind, and
	 * the cart is exactly the accepted updates applied in increasing order.
	 */
	@Test
	void shuffledUpdatesSentAtOnceApplyExactlyTheAcceptedOnesInIncreasingOrder() throws Exception {
		int refused = 0;
		for (int round = 0; round < 3; round++) {
			String session = newSession(this.http);
			List<Long> numbers = numbers(UPDATES);
			Collections.shuffle(numbers);
			List<HttpResponse<byte[]>> answers = Duplicates
				.send(UPDATES, (i) -> patch(this.http, session, update(numbers.get(i))))
				.answers();
			List<Long> accepted = new ArrayList<>();
			for (int i = 0; i < UPDATES; i++) {
				long n = numbers.get(i);
				HttpResponse<byte[]> answer = answers.get(i);
				if (answer.statusCode() == 200) {
					accepted.add(n);
					continue;
				}
				assertThat(answer.statusCode()).as("answer to update %d", n).isEqualTo(409);
				JsonNode problem = json(answer);
				assertThat(problem.get("type").asString()).isEqualTo(STALE);
				assertThat(problem.get("highestSequence").asLong()).isGreaterThan(n);
				assertThat(this.db.record(OPERATION, key(session, n))).isNull();
			}
			Collections.sort(accepted);
			assertThat(accepted).contains((long) UPDATES);
			assertThat(this.db.cartUpdates(session)).as("updates, in the order applied").isEqualTo(accepted);
			assertThat(this.db.cartItems(session)).isEqualTo(cartAfter(accepted));
			assertThat(json(this.http.get("/sessions/" + session + "/cart").send()).get("sequence").asLong())
				.isEqualTo(UPDATES);
			refused += UPDATES - accepted.size();
		}
		assertThat(refused).as("updates refused as stale in three rounds").isPositive();
	}

}
