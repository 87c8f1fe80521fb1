package io.github.idempotency.sample.orders;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.github.idempotency.sample.support.PostgresFlowTest;

import static io.github.idempotency.sample.support.Carts.createMandate;
import static io.github.idempotency.sample.support.Carts.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Concurrent orders for one mandate while a table lock holds the first inside its transaction: in
 * ATOMIC mode the duplicates wait for the first order to commit (in memory, as it runs in the same
 * instance) and replay it, so every request gets 201 and one order exists.
 */
class ConcurrentOrderTests extends PostgresFlowTest {

	private static final int REQUESTS = 5;

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Test
	void concurrentOrdersForOneMandateWaitForTheFirstAndReplayIt() throws Exception {
		String mandateId = createMandate(this.http);
		List<CompletableFuture<HttpResponse<byte[]>>> responses = new ArrayList<>();
		try (Connection lock = database().connect(); Connection observer = database().connect()) {
			lock.setAutoCommit(false);
			try (Statement statement = lock.createStatement()) {
				statement.execute("LOCK TABLE orders IN EXCLUSIVE MODE");
			}
			for (int i = 0; i < REQUESTS; i++) {
				responses.add(this.http.post("/orders").json(order(mandateId)).sendAsync());
			}
			await().atMost(TIMEOUT).until(() -> backendsWaitingOnLocks(observer) >= 1);
			assertThat(responses).noneMatch(CompletableFuture::isDone);
			lock.rollback();
		}
		List<HttpResponse<byte[]>> answered = new ArrayList<>();
		for (CompletableFuture<HttpResponse<byte[]>> response : responses) {
			answered.add(response.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
		}
		assertThat(answered).allSatisfy((response) -> {
			assertThat(response.statusCode()).isEqualTo(201);
			assertThat(response.body()).isEqualTo(answered.get(0).body());
		});
		assertThat(answered).filteredOn((response) -> response.headers().firstValue("Idempotent-Replayed").isEmpty())
			.hasSize(1);
		assertThat(this.db.ordersOf(mandateId)).isOne();
	}

	private static long backendsWaitingOnLocks(Connection connection) throws Exception {
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT count(*) FROM pg_stat_activity "
						+ "WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
			rs.next();
			return rs.getLong(1);
		}
	}

}
