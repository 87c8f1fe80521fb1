package io.github.idempotency.sample.sessions;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.Rest;

import static io.github.idempotency.sample.support.Payments.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /sessions} keys a login by the device's current session,
 * {@code session:{userId}:{deviceId}:{number}}: while a session is active a login gets its token
 * as a replay, and once it has ended or expired a login gets a new session, even though the
 * idempotency record of the old one is still live.
 */
class SessionIdempotencyTests extends PostgresFlowTest {

	private String user;

	private Rest rest;

	@BeforeEach
	void newUser() {
		this.user = "user-" + UUID.randomUUID().toString().substring(0, 8);
		this.rest = new Rest(this.port);
	}

	@Test
	void loginWhileTheSessionIsActiveGetsItsTokenAsAReplay() {
		HttpResponse<byte[]> first = login(this.user, "phone");
		HttpResponse<byte[]> again = login(this.user, "phone");
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(again.statusCode()).isEqualTo(201);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		JsonNode session = json(first);
		assertThat(session.get("number").asInt()).isOne();
		assertThat(session.get("token").asString()).startsWith("st_");
		assertThat(first.headers().firstValue("Location")).hasValue("/sessions/" + session.get("id").asString());
		assertThat(Duration.between(Instant.parse(session.get("createdAt").asString()),
				Instant.parse(session.get("expiresAt").asString())))
			.isEqualTo(Duration.ofMinutes(30));
		assertThat(this.db.sessions()).isOne();
		assertThat(this.db.record("create-session", "session:" + this.user + ":phone:1")).containsEntry("status",
				"COMPLETED");
	}

	@Test
	void loginAfterTheSessionEndedGetsANewSessionAndNeverTheEndedToken() {
		JsonNode ended = json(login(this.user, "phone"));
		HttpResponse<byte[]> end = this.rest.delete("/sessions/" + ended.get("id").asString());
		assertThat(end.statusCode()).isEqualTo(204);
		HttpResponse<byte[]> next = login(this.user, "phone");
		assertThat(next.statusCode()).isEqualTo(201);
		assertThat(next.headers().firstValue("Idempotent-Replayed")).isEmpty();
		JsonNode session = json(next);
		assertThat(session.get("token").asString()).isNotEqualTo(ended.get("token").asString());
		assertThat(session.get("number").asInt()).isEqualTo(2);
		assertThat(json(this.http.get("/sessions/" + ended.get("id").asString()).send()).get("status").asString())
			.isEqualTo("ENDED");
		assertThat(this.db.record("create-session", "session:" + this.user + ":phone:1"))
			.as("the ended session's answer is still stored, under a key no login makes any more")
			.containsEntry("status", "COMPLETED");
		assertThat(this.db.sessions()).isEqualTo(2);
	}

	@Test
	void loginAfterTheSessionExpiredGetsANewSessionThoughTheOldAnswerIsStillStored() {
		JsonNode expired = json(login(this.user, "phone"));
		this.db.expireSession(expired.get("id").asString());
		HttpResponse<byte[]> next = login(this.user, "phone");
		assertThat(next.statusCode()).isEqualTo(201);
		assertThat(next.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(json(next).get("token").asString()).isNotEqualTo(expired.get("token").asString());
		assertThat(json(next).get("number").asInt()).isEqualTo(2);
		assertThat(json(this.http.get("/sessions/" + expired.get("id").asString()).send()).get("status").asString())
			.isEqualTo("EXPIRED");
		assertThat(this.db.record("create-session", "session:" + this.user + ":phone:1")).containsEntry("status",
				"COMPLETED");
		assertThat(this.db.sessions()).isEqualTo(2);
	}

	@Test
	void loginFindsTheActiveSessionOnceItsIdempotencyRecordHasExpired() {
		JsonNode first = json(login(this.user, "phone"));
		this.db.expireRecord("create-session", "session:" + this.user + ":phone:1");
		HttpResponse<byte[]> again = login(this.user, "phone");
		assertThat(again.statusCode()).isEqualTo(200);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(json(again)).isEqualTo(first);
		assertThat(this.db.sessions()).isOne();
	}

	@Test
	void eachUserAndDeviceHasASessionOfItsOwn() {
		String phone = json(login(this.user, "phone")).get("token").asString();
		String laptop = json(login(this.user, "laptop")).get("token").asString();
		String otherUser = json(login(this.user + "-2", "phone")).get("token").asString();
		assertThat(phone).isNotEqualTo(laptop).isNotEqualTo(otherUser);
		assertThat(laptop).isNotEqualTo(otherUser);
		assertThat(this.db.sessions()).isEqualTo(3);
	}

	@Test
	void endingASessionTwiceIsNoContentAndAnUnknownSessionIsNotFound() {
		String id = json(login(this.user, "phone")).get("id").asString();
		assertThat(this.rest.delete("/sessions/" + id).statusCode()).isEqualTo(204);
		assertThat(this.rest.delete("/sessions/" + id).statusCode()).isEqualTo(204);
		HttpResponse<byte[]> unknown = this.rest.delete("/sessions/ses_unknown");
		assertThat(unknown.statusCode()).isEqualTo(404);
		assertThat(json(unknown).get("type").asString())
			.isEqualTo("https://payments.example/problems/session-not-found");
		assertThat(this.http.get("/sessions/ses_unknown").send().statusCode()).isEqualTo(404);
	}

	@Test
	void loginWithoutAValidUserOrDeviceIsRefusedBeforeAnythingIsClaimed() {
		for (String body : new String[] { "{\"deviceId\":\"phone\"}", "{\"userId\":\"u-1\"}",
				"{\"userId\":\"u:1\",\"deviceId\":\"phone\"}" }) {
			HttpResponse<byte[]> response = this.http.post("/sessions").json(body).send();
			assertThat(response.statusCode()).as(body).isEqualTo(400);
			assertThat(json(response).get("type").asString())
				.isEqualTo("https://payments.example/problems/invalid-session-request");
		}
		assertThat(this.db.records("create-session")).isZero();
		assertThat(this.db.sessions()).isZero();
	}

	private HttpResponse<byte[]> login(String userId, String deviceId) {
		return this.http.post("/sessions")
			.json("{\"userId\":\"" + userId + "\",\"deviceId\":\"" + deviceId + "\"}")
			.send();
	}

}
