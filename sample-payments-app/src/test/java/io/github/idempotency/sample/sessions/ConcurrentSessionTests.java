package io.github.idempotency.sample.sessions;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import io.github.idempotency.sample.support.Duplicates;
import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.TableLock;

import static io.github.idempotency.sample.support.Duplicates.isReplayOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrent logins of one device, from real threads, while a table lock holds the first inside
 * its insert: one session is started, and every other login is answered with it or told that it
 * is in progress.
 */
class ConcurrentSessionTests extends PostgresFlowTest {

	private static final int LOGINS = 8;

	private static final String LOGIN = "{\"userId\":\"u-concurrent\",\"deviceId\":\"phone\"}";

	@Test
	void concurrentLoginsOfOneDeviceStartOneSession() throws Exception {
		Duplicates logins;
		try (TableLock lock = TableLock.exclusive(database(), "user_session")) {
			logins = Duplicates.send(LOGINS, (i) -> this.http.post("/sessions").json(LOGIN).send());
			lock.awaitWaiter();
			assertThat(logins.answered()).isLessThan(LOGINS);
		}
		HttpResponse<byte[]> original = logins.assertOneOriginalAndOnlyReplaysOrConflicts(201);
		assertThat(this.db.sessions()).isOne();
		assertThat(isReplayOf(this.http.post("/sessions").json(LOGIN).send(), original)).isTrue();
	}

}
