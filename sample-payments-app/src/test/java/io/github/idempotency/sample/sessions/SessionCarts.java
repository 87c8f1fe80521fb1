package io.github.idempotency.sample.sessions;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import io.github.idempotency.testsupport.Http;

import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sessions, cart updates that depend on the order they are applied in, and what a cart must hold
 * once a set of them is applied in increasing order.
 */
final class SessionCarts {

	static final String OPERATION = "update-session-cart";

	static final String STALE = "urn:problem-type:idempotency:stale-sequence";

	private SessionCarts() {
	}

	/**
	 * Sign a new user in and return the session id.
	 * @param http the client
	 * @return the id of the new, active session
	 */
	static String newSession(Http http) {
		String user = "user-" + UUID.randomUUID().toString().substring(0, 8);
		HttpResponse<byte[]> login = http.post("/sessions")
			.json("{\"userId\":\"" + user + "\",\"deviceId\":\"phone\"}")
			.send();
		assertThat(login.statusCode()).isEqualTo(201);
		return json(login).get("id").asString();
	}

	/**
	 * Return update {@code n}: it sets {@code shared} to {@code n}, adds {@code sku-n} and removes
	 * {@code sku-(n-1)}, so that the cart depends on which updates are applied and in what order.
	 * @param n the update's number
	 * @return the body
	 */
	static String update(long n) {
		return "{\"sequence\":" + n + ",\"changes\":[" + String.join(",", changes(n).entrySet()
			.stream()
			.map((change) -> "{\"sku\":\"" + change.getKey() + "\",\"quantity\":" + change.getValue() + "}")
			.toList()) + "]}";
	}

	/**
	 * Return the items of a cart after updates made by {@link #update(long)}, applied in increasing
	 * order of their numbers.
	 * @param numbers the numbers of the updates applied
	 * @return the quantity of each sku
	 */
	static Map<String, Integer> cartAfter(Collection<Long> numbers) {
		Map<String, Integer> cart = new TreeMap<>();
		numbers.stream().sorted().forEach((n) -> changes(n).forEach((sku, quantity) -> {
			if (quantity == 0) {
				cart.remove(sku);
			}
			else {
				cart.put(sku, quantity);
			}
		}));
		return cart;
	}

	/**
	 * Send an update to a session's cart.
	 * @param http the client
	 * @param sessionId the session
	 * @param body the update
	 * @return the answer
	 */
	static HttpResponse<byte[]> patch(Http http, String sessionId, String body) {
		return http.patch("/sessions/" + sessionId + "/cart").json(body).send();
	}

	/**
	 * Return the numbers 1 to {@code count}.
	 * @param count how many
	 * @return the numbers, in increasing order, in a list that may be shuffled
	 */
	static List<Long> numbers(int count) {
		List<Long> numbers = new ArrayList<>();
		for (long n = 1; n <= count; n++) {
			numbers.add(n);
		}
		return numbers;
	}

	/**
	 * Return the key of an update.
	 * @param sessionId the session
	 * @param n the update's number
	 * @return {@code session_update:{sessionId}:cart:{n}}
	 */
	static String key(String sessionId, long n) {
		return "session_update:" + sessionId + ":cart:" + n;
	}

	private static Map<String, Integer> changes(long n) {
		Map<String, Integer> changes = new TreeMap<>();
		changes.put("shared", (int) n);
		changes.put("sku-" + n, 1);
		if (n > 1) {
			changes.put("sku-" + (n - 1), 0);
		}
		return changes;
	}

}
