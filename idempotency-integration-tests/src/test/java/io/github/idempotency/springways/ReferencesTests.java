package io.github.idempotency.springways;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.idempotency.KeyHashes;
import io.github.idempotency.testsupport.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * References business code attaches to a key ({@code IdempotencyContext.reference}), over real
 * HTTP on PostgreSQL: stored at once, shown by the Actuator look-up of the key, and searched by
 * reference to the key's hash, operation and status, even when the operation did not complete.
 */
class ReferencesTests extends SpringWaysTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	@Test
	void aGatewayTransactionLeadsToItsKeyAndTheKeyShowsIt() {
		String key = unique();
		HttpResponse<byte[]> charged = charge("/charges", key, false);
		assertThat(charged.statusCode()).isEqualTo(201);
		String transaction = json.readTree(Http.text(charged)).path("transaction").asString();
		assertThat(this.jdbc.queryForList("SELECT reference_value FROM idempotency_reference WHERE operation = "
				+ "'charges' AND idempotency_key = ? AND reference_name = 'gateway_transaction'", String.class, key))
			.containsExactly(transaction);
		HttpResponse<byte[]> search = search(transaction);
		assertThat(Http.text(search)).doesNotContain(key);
		JsonNode found = json.readTree(Http.text(search));
		assertThat(found.path("reference").asString()).isEqualTo("gateway_transaction");
		assertThat(found.path("keys").values()).singleElement().satisfies((referenced) -> {
			assertThat(referenced.path("tenant").asString()).isEqualTo("default");
			assertThat(referenced.path("operation").asString()).isEqualTo("charges");
			assertThat(referenced.path("keyHash").asString()).isEqualTo(KeyHashes.shortHash(key));
			assertThat(referenced.path("status").asString()).isEqualTo("COMPLETED");
		});
		HttpResponse<byte[]> described = http()
			.get("/actuator/idempotency?tenant=default&operation=charges&key=" + key)
			.send();
		assertThat(described.statusCode()).isEqualTo(200);
		assertThat(json.readTree(Http.text(described)).path("references").path("gateway_transaction").values())
			.extracting(JsonNode::asString)
			.containsExactly(transaction);
		assertThat(charge("/charges", key, false).body()).isEqualTo(charged.body());
		assertThat(json.readTree(Http.text(search(transaction))).path("keys").values()).hasSize(1);
	}

	/**
	 * The charge happened, then the attempt failed transiently: the reference stays with the
	 * released key, so that the operator sees the charge, and the retry adds its own.
	 */
	@Test
	void aReferenceAttachedBeforeATransientFailureStaysWithTheReleasedKey() {
		String key = unique();
		HttpResponse<byte[]> failed = charge("/charges", key, true);
		assertThat(failed.statusCode()).isEqualTo(503);
		List<String> first = references(key, "charges");
		assertThat(first).hasSize(1);
		assertThat(status(search(first.get(0)))).isEqualTo("RELEASED");
		assertThat(charge("/charges", key, false).statusCode()).isEqualTo(201);
		assertThat(references(key, "charges")).hasSize(2).contains(first.get(0));
		assertThat(status(search(first.get(0)))).isEqualTo("COMPLETED");
	}

	/**
	 * An ATOMIC operation rolled back after the charge: its record is gone, the reference, written
	 * outside its transaction, is not, and the search tells that the key has no record.
	 */
	@Test
	void aReferenceOutlivesTheRollbackOfAnAtomicOperation() {
		String key = unique();
		assertThat(charge("/atomic-charges", key, false).statusCode()).isEqualTo(500);
		assertThat(records(key)).isZero();
		List<String> references = references(key, "atomic-charges");
		assertThat(references).hasSize(1);
		assertThat(this.effects.count("atomic-charges", references.get(0))).isZero();
		JsonNode found = json.readTree(Http.text(search(references.get(0))));
		assertThat(found.path("keys").values()).singleElement().satisfies((referenced) -> {
			assertThat(referenced.path("operation").asString()).isEqualTo("atomic-charges");
			assertThat(referenced.path("status").isNull()).isTrue();
		});
	}

	/**
	 * The new ATOMIC claim of an expired key must not hold the old record's references locked
	 * while the operation attaches the same reference again, outside its transaction.
	 */
	@Test
	void anAtomicOperationReplacingAnExpiredRecordAttachesTheSameReferenceAgain() {
		String key = unique();
		assertThat(receipt(key).statusCode()).isEqualTo(201);
		this.jdbc.update("UPDATE idempotency_record SET expires_at = clock_timestamp() - INTERVAL '1 second' "
				+ "WHERE operation = 'atomic-receipts' AND idempotency_key = ?", key);
		HttpResponse<byte[]> again = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> receipt(key));
		assertThat(again.statusCode()).isEqualTo(201);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(references(key, "atomic-receipts")).containsExactly("gw-" + key);
		assertThat(this.effects.count("atomic-receipts", "gw-" + key)).isEqualTo(2);
		assertThat(status(search("gw-" + key))).isEqualTo("COMPLETED");
	}

	@Test
	void aSearchNeedsTheNameAndTheValueOfTheReference() {
		assertThat(http().get("/actuator/idempotency?reference=gateway_transaction").send().statusCode())
			.isEqualTo(400);
		assertThat(http().get("/actuator/idempotency?value=gw-1").send().statusCode()).isEqualTo(400);
		assertThat(json.readTree(Http.text(search("gw-" + unique()))).path("keys").values()).isEmpty();
	}

	private HttpResponse<byte[]> charge(String path, String key, boolean failAfterCharge) {
		return http().post(path)
			.key(key)
			.json("{\"value\":\"" + key + "\",\"failAfterCharge\":" + failAfterCharge + "}")
			.send();
	}

	private HttpResponse<byte[]> receipt(String key) {
		return http().post("/atomic-receipts").key(key).json("{\"value\":\"" + key + "\"}").send();
	}

	private HttpResponse<byte[]> search(String transaction) {
		HttpResponse<byte[]> response = http()
			.get("/actuator/idempotency?reference=gateway_transaction&value=" + transaction)
			.send();
		assertThat(response.statusCode()).isEqualTo(200);
		return response;
	}

	private static String status(HttpResponse<byte[]> search) {
		List<JsonNode> keys = List.copyOf(json.readTree(Http.text(search)).path("keys").values());
		assertThat(keys).hasSize(1);
		return keys.get(0).path("status").asString();
	}

	private List<String> references(String key, String operation) {
		return this.jdbc.queryForList("SELECT reference_value FROM idempotency_reference WHERE operation = ? "
				+ "AND idempotency_key = ? ORDER BY created_at", String.class, operation, key);
	}

}
