package io.github.idempotency.sample.sessions;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.Rest;

import static io.github.idempotency.sample.sessions.SessionCarts.OPERATION;
import static io.github.idempotency.sample.sessions.SessionCarts.STALE;
import static io.github.idempotency.sample.sessions.SessionCarts.cartAfter;
import static io.github.idempotency.sample.sessions.SessionCarts.key;
import static io.github.idempotency.sample.sessions.SessionCarts.newSession;
import static io.github.idempotency.sample.sessions.SessionCarts.numbers;
import static io.github.idempotency.sample.sessions.SessionCarts.update;
import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code PATCH /sessions/{id}/cart} keys an update {@code session_update:{sessionId}:cart:{sequence}}
 * and orders it by its number: a duplicate replays, a number below the highest applied is refused
 * with the starter's 409 stale-sequence problem and changes nothing, and the cart is the accepted
 * updates applied in increasing order, whatever order they were sent in.
 */
class SessionCartTests extends PostgresFlowTest {

	private String session;

	@BeforeEach
	void signIn() {
		this.session = newSession(this.http);
	}

	@Test
	void updatesChangeTheCartAndTheCartShowsTheLastNumberApplied() {
		HttpResponse<byte[]> empty = this.http.get("/sessions/" + this.session + "/cart").send();
		assertThat(empty.statusCode()).isEqualTo(200);
		assertThat(json(empty).get("sequence").asLong()).isZero();
		assertThat(json(empty).get("items").isEmpty()).isTrue();
		HttpResponse<byte[]> first = patch(
				"{\"sequence\":1,\"changes\":[{\"sku\":\"A-1\",\"quantity\":2},{\"sku\":\"B-2\",\"quantity\":1}]}");
		assertThat(first.statusCode()).isEqualTo(200);
		HttpResponse<byte[]> second = patch(
				"{\"sequence\":2,\"changes\":[{\"sku\":\"B-2\",\"quantity\":0},{\"sku\":\"A-1\",\"quantity\":3}]}");
		assertThat(second.statusCode()).isEqualTo(200);
		JsonNode cart = json(second);
		assertThat(cart.get("sessionId").asString()).isEqualTo(this.session);
		assertThat(cart.get("sequence").asLong()).isEqualTo(2);
		assertThat(cart.get("items").toString()).isEqualTo("[{\"sku\":\"A-1\",\"quantity\":3}]");
		assertThat(json(this.http.get("/sessions/" + this.session + "/cart").send())).isEqualTo(cart);
		assertThat(this.db.cartUpdates(this.session)).containsExactly(1L, 2L);
		assertThat(this.db.cartItems(this.session)).containsExactly(Map.entry("A-1", 3));
		assertThat(this.db.record(OPERATION, key(this.session, 2))).containsEntry("status", "COMPLETED");
	}

	@Test
	void aDuplicateIsReplayedEvenAfterAHigherNumberWasApplied() {
		HttpResponse<byte[]> first = patch(update(1));
		HttpResponse<byte[]> again = patch(update(1));
		assertThat(again.statusCode()).isEqualTo(200);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		assertThat(patch(update(2)).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> late = patch(update(1));
		assertThat(late.statusCode()).isEqualTo(200);
		assertThat(late.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(late.body()).isEqualTo(first.body());
		assertThat(this.db.cartUpdates(this.session)).containsExactly(1L, 2L);
		assertThat(this.db.cartItems(this.session)).isEqualTo(cartAfter(List.of(1L, 2L)));
	}

	@Test
	void anUpdateBelowTheHighestAppliedIsRefusedAsStaleAndChangesNothing() {
		assertThat(patch(update(1)).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> third = patch(update(3));
		assertThat(third.statusCode()).isEqualTo(200);
		for (int attempt = 0; attempt < 2; attempt++) {
			HttpResponse<byte[]> late = patch(update(2));
			assertThat(late.statusCode()).isEqualTo(409);
			assertThat(late.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			JsonNode problem = json(late);
			assertThat(problem.get("type").asString()).isEqualTo(STALE);
			assertThat(problem.get("sequence").asLong()).isEqualTo(2);
			assertThat(problem.get("highestSequence").asLong()).isEqualTo(3);
		}
		assertThat(this.db.record(OPERATION, key(this.session, 2))).isNull();
		assertThat(this.db.cartUpdates(this.session)).containsExactly(1L, 3L);
		assertThat(this.db.cartItems(this.session)).isEqualTo(cartAfter(List.of(1L, 3L)));
		assertThat(this.http.get("/sessions/" + this.session + "/cart").send().body()).isEqualTo(third.body());
	}

	/**
	 * Sent one after the other in a shuffled order, an update is accepted exactly when its number
	 * is above every number sent before it; every other one is refused and changes nothing, and
	 * sending them all again changes nothing either.
	 */
	@Test
	void shuffledUpdatesLeaveExactlyTheAcceptedOnesAppliedInIncreasingOrder() {
		for (long seed = 1; seed <= 3; seed++) {
			String session = (seed == 1) ? this.session : newSession(this.http);
			List<Long> numbers = numbers(32);
			Collections.shuffle(numbers, new Random(seed));
			List<Long> accepted = new ArrayList<>();
			Map<Long, HttpResponse<byte[]>> answers = new HashMap<>();
			long highest = 0;
			for (long n : numbers) {
				HttpResponse<byte[]> answer = SessionCarts.patch(this.http, session, update(n));
				answers.put(n, answer);
				if (n > highest) {
					assertThat(answer.statusCode()).as("update %d after %d", n, highest).isEqualTo(200);
					assertThat(json(answer).get("sequence").asLong()).isEqualTo(n);
					accepted.add(n);
					highest = n;
				}
				else {
					assertThat(answer.statusCode()).as("update %d after %d", n, highest).isEqualTo(409);
					assertThat(json(answer).get("type").asString()).isEqualTo(STALE);
					assertThat(json(answer).get("highestSequence").asLong()).isEqualTo(highest);
				}
			}
			assertThat(accepted).contains(32L).isSorted();
			assertThat(this.db.cartUpdates(session)).isEqualTo(accepted);
			assertThat(this.db.cartItems(session)).isEqualTo(cartAfter(accepted));
			Collections.shuffle(numbers, new Random(-seed));
			for (long n : numbers) {
				HttpResponse<byte[]> again = SessionCarts.patch(this.http, session, update(n));
				if (accepted.contains(n)) {
					assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
					assertThat(again.body()).isEqualTo(answers.get(n).body());
				}
				else {
					assertThat(again.statusCode()).isEqualTo(409);
				}
			}
			assertThat(this.db.cartUpdates(session)).isEqualTo(accepted);
			assertThat(this.db.cartItems(session)).isEqualTo(cartAfter(accepted));
		}
	}

	@Test
	void anUpdateAfterTheSessionEndedOrExpiredIsRefusedAndChangesNothing() {
		HttpResponse<byte[]> first = patch(update(1));
		assertThat(new Rest(this.port).delete("/sessions/" + this.session).statusCode()).isEqualTo(204);
		HttpResponse<byte[]> ended = patch(update(2));
		assertThat(ended.statusCode()).isEqualTo(409);
		assertThat(json(ended).get("type").asString())
			.isEqualTo("https://payments.example/problems/session-not-active");
		assertThat(this.db.record(OPERATION, key(this.session, 2))).isNull();
		assertThat(patch(update(1)).body()).as("a duplicate of an applied update is still replayed")
			.isEqualTo(first.body());
		String expiring = newSession(this.http);
		assertThat(SessionCarts.patch(this.http, expiring, update(1)).statusCode()).isEqualTo(200);
		this.db.expireSession(expiring);
		assertThat(SessionCarts.patch(this.http, expiring, update(2)).statusCode()).isEqualTo(409);
		assertThat(this.db.cartUpdates(this.session)).containsExactly(1L);
		assertThat(this.db.cartUpdates(expiring)).containsExactly(1L);
		assertThat(this.db.cartItems(expiring)).isEqualTo(cartAfter(List.of(1L)));
	}

	@Test
	void anUpdateOfAnUnknownSessionIsNotFoundBeforeAnythingIsClaimed() {
		for (String id : new String[] { "ses_unknown", "ses:1" }) {
			HttpResponse<byte[]> response = SessionCarts.patch(this.http, id, update(1));
			assertThat(response.statusCode()).as(id).isEqualTo(404);
			assertThat(json(response).get("type").asString())
				.isEqualTo("https://payments.example/problems/session-not-found");
		}
		assertThat(this.http.get("/sessions/ses_unknown/cart").send().statusCode()).isEqualTo(404);
		assertThat(this.db.records(OPERATION)).isZero();
	}

	@Test
	void aMalformedUpdateIsABadRequestBeforeAnythingIsClaimed() {
		String[] malformed = { "{\"changes\":[{\"sku\":\"A\",\"quantity\":1}]}",
				"{\"sequence\":0,\"changes\":[{\"sku\":\"A\",\"quantity\":1}]}", "{\"sequence\":1,\"changes\":[]}",
				"{\"sequence\":1,\"changes\":[{\"sku\":\"A:1\",\"quantity\":1}]}",
				"{\"sequence\":1,\"changes\":[{\"sku\":\"A\",\"quantity\":-1}]}",
				"{\"sequence\":1,\"changes\":[{\"sku\":\"A\",\"quantity\":1},{\"sku\":\"A\",\"quantity\":2}]}" };
		for (String body : malformed) {
			HttpResponse<byte[]> response = patch(body);
			assertThat(response.statusCode()).as(body).isEqualTo(400);
			JsonNode problem = json(response);
			assertThat(problem.get("type").asString())
				.isEqualTo("https://payments.example/problems/invalid-cart-update");
			assertThat(problem.get("errors").isEmpty()).as(body).isFalse();
		}
		assertThat(this.db.records(OPERATION)).isZero();
		assertThat(this.db.rows("SELECT * FROM idempotency_sequence WHERE scope = ?", this.session + ":cart"))
			.isEmpty();
		assertThat(patch(update(1)).statusCode()).isEqualTo(200);
	}

	@Test
	void anotherUpdateWithANumberAlreadyUsedIsRefusedAsAReusedKey() {
		assertThat(patch(update(1)).statusCode()).isEqualTo(200);
		HttpResponse<byte[]> reused = patch("{\"sequence\":1,\"changes\":[{\"sku\":\"other\",\"quantity\":1}]}");
		assertThat(reused.statusCode()).isEqualTo(422);
		assertThat(this.db.cartUpdates(this.session)).containsExactly(1L);
		assertThat(this.db.cartItems(this.session)).isEqualTo(cartAfter(List.of(1L)));
	}

	/**
	 * Once the starter has forgotten the session's scope, which lives for the operation's TTL
	 * after its last update, the cart itself still refuses a number below its last one.
	 */
	@Test
	void theCartRefusesALowerNumberItselfOnceTheStarterNoLongerKeepsTheScope() {
		assertThat(patch(update(1)).statusCode()).isEqualTo(200);
		assertThat(patch(update(3)).statusCode()).isEqualTo(200);
		assertThat(this.jdbc.update("UPDATE idempotency_sequence SET expires_at = now() - interval '1 second' "
				+ "WHERE scope = ?", this.session + ":cart")).isOne();
		HttpResponse<byte[]> late = patch(update(2));
		assertThat(late.statusCode()).isEqualTo(409);
		JsonNode problem = json(late);
		assertThat(problem.get("type").asString()).isEqualTo(STALE);
		assertThat(problem.get("sequence").asLong()).isEqualTo(2);
		assertThat(problem.get("highestSequence").asLong()).isEqualTo(3);
		assertThat(this.db.record(OPERATION, key(this.session, 2))).isNull();
		assertThat(this.db.cartUpdates(this.session)).containsExactly(1L, 3L);
		assertThat(this.db.cartItems(this.session)).isEqualTo(cartAfter(List.of(1L, 3L)));
		assertThat(patch(update(4)).statusCode()).isEqualTo(200);
	}

	private HttpResponse<byte[]> patch(String body) {
		return SessionCarts.patch(this.http, this.session, body);
	}

}
