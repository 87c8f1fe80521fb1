package io.github.idempotency.sample.webhooks;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.idempotency.sample.support.Duplicates;
import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.TableLock;

import static io.github.idempotency.sample.support.Duplicates.isConflict;
import static io.github.idempotency.sample.support.Duplicates.isReplayOf;
import static io.github.idempotency.sample.support.GatewayWebhooks.FAILED;
import static io.github.idempotency.sample.support.GatewayWebhooks.REFUNDED;
import static io.github.idempotency.sample.support.GatewayWebhooks.SUCCEEDED;
import static io.github.idempotency.sample.support.GatewayWebhooks.charge;
import static io.github.idempotency.sample.support.GatewayWebhooks.deliver;
import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gateway webhooks of one charge delivered at once from real threads: copies of an event apply it
 * once, and the three events, each delivered several times in a shuffled order, apply one settling
 * event and end, after the gateway's redeliveries, in the state it decides.
 */
class ConcurrentGatewayWebhookTests extends PostgresFlowTest {

	private static final int DUPLICATES = 8;

	private static final int COPIES = 4;

	@Test
	void concurrentDuplicatesOfAnEventApplyItOnce() throws Exception {
		String transaction = charge(this.http);
		Duplicates deliveries;
		try (TableLock lock = TableLock.exclusive(database(), "gateway_payment_event")) {
			deliveries = Duplicates.send(DUPLICATES, (i) -> deliver(this.http, SUCCEEDED, transaction));
			lock.awaitWaiter();
			assertThat(deliveries.answered()).isLessThan(DUPLICATES);
		}
		HttpResponse<byte[]> original = deliveries.assertOneOriginalAndOnlyReplaysOrConflicts(200);
		assertThat(this.db.gatewayEvents(transaction)).containsExactly(SUCCEEDED);
		assertThat(isReplayOf(deliver(this.http, SUCCEEDED, transaction), original)).isTrue();
	}

	@Test
	void theThreeEventsDeliveredAtOnceApplyOneSettlingEventAndEndInTheStateItDecides() throws Exception {
		for (int round = 0; round < 5; round++) {
			String transaction = charge(this.http);
			List<String> events = new ArrayList<>();
			for (int i = 0; i < COPIES; i++) {
				events.addAll(List.of(SUCCEEDED, FAILED, REFUNDED));
			}
			Collections.shuffle(events);
			List<HttpResponse<byte[]>> answers = Duplicates
				.send(events.size(), (i) -> deliver(this.http, events.get(i), transaction))
				.answers();
			for (HttpResponse<byte[]> answer : answers) {
				assertThat(answer.statusCode()).as(new String(answer.body())).isIn(200, 409);
				if (answer.statusCode() == 409 && !isConflict(answer)) {
					assertThat(json(answer).get("type").asString()).isIn(
							"https://payments.example/problems/invalid-gateway-transition",
							"https://payments.example/problems/gateway-event-out-of-order");
				}
			}
			List<String> applied = this.db.gatewayEvents(transaction);
			assertThat(applied).as("one settling event applied first").hasSizeBetween(1, 2);
			String settled = applied.get(0);
			assertThat(settled).isIn(SUCCEEDED, FAILED);
			List<String> valid = settled.equals(SUCCEEDED) ? List.of(SUCCEEDED, REFUNDED) : List.of(FAILED);
			for (String event : List.of(SUCCEEDED, FAILED, REFUNDED)) {
				assertThat(deliver(this.http, event, transaction).statusCode()).as("redelivered %s", event)
					.isEqualTo(valid.contains(event) ? 200 : 409);
			}
			assertThat(this.db.gatewayEvents(transaction)).isEqualTo(valid);
			assertThat(this.db.gatewayState(transaction))
				.isEqualTo(settled.equals(SUCCEEDED) ? "REFUNDED" : "FAILED");
		}
	}

}
