package io.github.idempotency.sample.sync;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.Rest;

import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.sync.Syncs.newId;
import static io.github.idempotency.sample.sync.Syncs.user;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code PUT /sync/users/{id}} versions users like products, keyed
 * {@code sync:user:{id}:{baseVersion}}, and appends each consent that changes to the user's
 * consent history: no entry is ever updated, and duplicates and refused updates add none.
 */
class UserSyncTests extends PostgresFlowTest {

	private Rest rest;

	private String id;

	@BeforeEach
	void newUser() {
		this.rest = new Rest(this.port);
		this.id = newId("user-");
	}

	@Test
	void consentChangesAreAppendedAndEarlierEntriesNeverChange() {
		HttpResponse<byte[]> created = sync(user(0, "ada@example.com", "{\"marketing\":true,\"analytics\":false}"));
		assertThat(created.statusCode()).isEqualTo(201);
		List<Map<String, Object>> first = history();
		assertThat(first)
			.extracting((row) -> row.get("purpose") + "=" + row.get("granted") + "@" + row.get("user_version"))
			.containsExactly("analytics=false@1", "marketing=true@1");
		JsonNode withdrawn = json(sync(user(1, "ada@example.com", "{\"marketing\":false}")));
		assertThat(withdrawn.get("version").asLong()).isEqualTo(2);
		assertThat(withdrawn.get("consents").toString()).isEqualTo("{\"analytics\":false,\"marketing\":false}");
		List<Map<String, Object>> second = history();
		assertThat(second).hasSize(3);
		assertThat(second.subList(0, 2)).as("earlier entries, unchanged").isEqualTo(first);
		assertThat(second.get(2)).containsEntry("purpose", "marketing")
			.containsEntry("granted", false)
			.containsEntry("user_version", 2L);
		JsonNode unchanged = json(sync(user(2, "ada@example.com", "{\"marketing\":false,\"analytics\":false}")));
		assertThat(unchanged.get("version").asLong()).isEqualTo(3);
		assertThat(history()).isEqualTo(second);
	}

	@Test
	void duplicateAndStaleUpdatesAddNoConsentChange() {
		sync(user(0, "ada@example.com", "{\"marketing\":true}"));
		HttpResponse<byte[]> first = sync(user(1, "ada@example.com", "{\"marketing\":false}"));
		HttpResponse<byte[]> duplicate = sync(user(1, "ada@example.com", "{\"marketing\":false}"));
		HttpResponse<byte[]> stale = sync(user(1, "ada@example.com", "{\"marketing\":true,\"profiling\":true}"));
		assertThat(duplicate.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(duplicate.body()).isEqualTo(first.body());
		assertThat(stale.statusCode()).isEqualTo(422);
		assertThat(json(stale).get("type").asString()).isEqualTo("urn:problem-type:idempotency:key-reused");
		assertThat(json(stale).get("currentVersion").asLong()).isEqualTo(2);
		assertThat(history()).extracting((row) -> row.get("purpose") + "=" + row.get("granted"))
			.containsExactly("marketing=true", "marketing=false");
		assertThat(this.db.rows("SELECT version FROM app_user WHERE id = ?", this.id).get(0))
			.containsEntry("version", 2L);
	}

	@Test
	void userAndConsentHistoryAreReadBack() {
		JsonNode created = json(sync(user(0, "ada@example.com", "{\"marketing\":true}")));
		JsonNode updated = json(sync("{\"baseVersion\":1,\"email\":\"ada@example.org\",\"consents\":{}}"));
		assertThat(updated.get("email").asString()).isEqualTo("ada@example.org");
		assertThat(updated.get("displayName").isNull()).isTrue();
		assertThat(updated.get("consents").toString()).isEqualTo("{\"marketing\":true}");
		assertThat(json(this.http.get("/sync/users/" + this.id).send())).isEqualTo(updated);
		JsonNode history = json(this.http.get("/sync/users/" + this.id + "/consents").send());
		assertThat(history.size()).isOne();
		assertThat(history.get(0).get("purpose").asString()).isEqualTo("marketing");
		assertThat(history.get(0).get("recordedAt")).isEqualTo(created.get("updatedAt"));
		assertThat(this.http.get("/sync/users/nobody/consents").send().statusCode()).isEqualTo(404);
	}

	@Test
	void malformedConsentsAreRefusedBeforeAnythingIsClaimed() {
		HttpResponse<byte[]> invalid = sync(user(0, "not-an-address", "{\"Marketing!\":true,\"analytics\":null}"));
		assertThat(invalid.statusCode()).isEqualTo(400);
		assertThat(json(invalid).get("errors").size()).isEqualTo(3);
		assertThat(this.db.records(SyncController.USER_OPERATION)).isZero();
		assertThat(history()).isEmpty();
	}

	private HttpResponse<byte[]> sync(String body) {
		return this.rest.put("/sync/users/" + this.id, body);
	}

	private List<Map<String, Object>> history() {
		return this.db.rows("SELECT id, purpose, granted, user_version, recorded_at FROM user_consent_history "
				+ "WHERE user_id = ? ORDER BY id", this.id);
	}

}
