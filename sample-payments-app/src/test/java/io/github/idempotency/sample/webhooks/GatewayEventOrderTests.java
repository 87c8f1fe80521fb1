package io.github.idempotency.sample.webhooks;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.idempotency.sample.support.PostgresFlowTest;

import static io.github.idempotency.sample.support.GatewayWebhooks.FAILED;
import static io.github.idempotency.sample.support.GatewayWebhooks.REFUNDED;
import static io.github.idempotency.sample.support.GatewayWebhooks.SUCCEEDED;
import static io.github.idempotency.sample.support.GatewayWebhooks.charge;
import static io.github.idempotency.sample.support.GatewayWebhooks.deliver;
import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three events of a charge delivered in every order, each once, then all redelivered as a
 * gateway does: an event that arrived early applies on its redelivery if it still can, every
 * other answer is replayed, and the charge ends in the state its first settling event decides.
 */
class GatewayEventOrderTests extends PostgresFlowTest {

	/**
	 * The events are {@code succeeded}, {@code failed} and {@code refund}; the answers are
	 * {@code applied}, a 200; {@code invalid}, the stored 409 invalid-gateway-transition; and
	 * {@code early}, the 409 gateway-event-out-of-order that is not stored.
	 */
	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			succeeded failed refund | applied invalid applied | applied invalid applied | REFUNDED | succeeded refund
			succeeded refund failed | applied applied invalid | applied applied invalid | REFUNDED | succeeded refund
			failed succeeded refund | applied invalid invalid | applied invalid invalid | FAILED   | failed
			failed refund succeeded | applied invalid invalid | applied invalid invalid | FAILED   | failed
			refund succeeded failed | early applied invalid   | applied applied invalid | REFUNDED | succeeded refund
			refund failed succeeded | early applied invalid   | invalid applied invalid | FAILED   | failed
			""")
	void everyOrderOfTheThreeEventsEndsInTheStateItsFirstSettlingEventDecides(String order, String firstAnswers,
			String redeliveredAnswers, String finalState, String appliedEvents) {
		String transaction = charge(this.http);
		List<String> events = types(order);
		Map<String, HttpResponse<byte[]>> stored = new HashMap<>();
		List<String> first = new ArrayList<>();
		for (String event : events) {
			HttpResponse<byte[]> answer = deliver(this.http, event, transaction);
			first.add(outcome(answer));
			assertThat(answer.headers().firstValue("Idempotent-Replayed")).isEmpty();
			if (!outcome(answer).equals("early")) {
				stored.put(event, answer);
			}
		}
		assertThat(String.join(" ", first)).isEqualTo(firstAnswers);
		List<String> redelivered = new ArrayList<>();
		for (String event : events) {
			HttpResponse<byte[]> answer = deliver(this.http, event, transaction);
			redelivered.add(outcome(answer));
			if (stored.containsKey(event)) {
				assertThat(answer.headers().firstValue("Idempotent-Replayed")).as(event).hasValue("true");
				assertThat(answer.body()).as(event).isEqualTo(stored.get(event).body());
			}
		}
		assertThat(String.join(" ", redelivered)).isEqualTo(redeliveredAnswers);
		assertThat(this.db.gatewayState(transaction)).isEqualTo(finalState);
		assertThat(this.db.gatewayEvents(transaction)).isEqualTo(types(appliedEvents));
		assertThat(json(this.http.get("/webhooks/gateway/payments/" + transaction).send()).get("state").asString())
			.isEqualTo(finalState);
	}

	private static List<String> types(String events) {
		return Stream.of(events.split(" ")).map((event) -> switch (event) {
			case "succeeded" -> SUCCEEDED;
			case "failed" -> FAILED;
			case "refund" -> REFUNDED;
			default -> throw new IllegalArgumentException(event);
		}).toList();
	}

	private static String outcome(HttpResponse<byte[]> answer) {
		if (answer.statusCode() == 200) {
			return "applied";
		}
		assertThat(answer.statusCode()).isEqualTo(409);
		String type = json(answer).get("type").asString();
		return switch (type) {
			case "https://payments.example/problems/invalid-gateway-transition" -> "invalid";
			case "https://payments.example/problems/gateway-event-out-of-order" -> "early";
			default -> throw new AssertionError("Unexpected problem " + type);
		};
	}

}
