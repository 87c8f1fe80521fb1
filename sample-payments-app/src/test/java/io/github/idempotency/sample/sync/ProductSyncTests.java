package io.github.idempotency.sample.sync;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.idempotency.sample.support.LockWaits;
import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.Rest;

import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.sync.Syncs.newId;
import static io.github.idempotency.sample.sync.Syncs.product;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code PUT /sync/products/{id}} applies an update to the version it was built on, keyed
 * {@code sync:product:{id}:{baseVersion}}: a duplicate replays, an update built on an older
 * version is refused with {@code 422 key-reused} while the version's record lives and
 * {@code 412 stale-version} after, one built on a version that does not exist
 * yet with {@code 412 unknown-version}, and the product changes only with accepted updates.
 */
class ProductSyncTests extends PostgresFlowTest {

	private static final String STALE = "https://payments.example/problems/stale-version";

	private Rest rest;

	private String id;

	@BeforeEach
	void newProduct() {
		this.rest = new Rest(this.port);
		this.id = newId("SKU-");
	}

	@Test
	void createThenUpdateRaisesTheVersionByOneEach() {
		HttpResponse<byte[]> created = sync(product(0, "Mug", 1200));
		assertThat(created.statusCode()).isEqualTo(201);
		assertThat(created.headers().firstValue("Location")).hasValue("/sync/products/" + this.id);
		assertThat(json(created).get("version").asLong()).isOne();
		HttpResponse<byte[]> updated = sync(product(1, "Mug", 1500));
		assertThat(updated.statusCode()).isEqualTo(200);
		JsonNode product = json(updated);
		assertThat(product.get("version").asLong()).isEqualTo(2);
		assertThat(product.get("price").asLong()).isEqualTo(1500);
		assertThat(json(this.http.get("/sync/products/" + this.id).send())).isEqualTo(product);
		assertThat(row()).containsEntry("version", 2L).containsEntry("price", 1500L);
	}

	@Test
	void duplicateUpdateIsReplayedAndAppliedOnce() {
		sync(product(0, "Mug", 1200));
		HttpResponse<byte[]> first = sync(product(1, "Mug", 1500));
		HttpResponse<byte[]> again = sync(product(1, "Mug", 1500));
		assertThat(again.statusCode()).isEqualTo(200);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(first.body());
		assertThat(row()).containsEntry("version", 2L);
		assertThat(this.db.record(SyncController.PRODUCT_OPERATION, "sync:product:" + this.id + ":1"))
			.containsEntry("status", "COMPLETED")
			.containsEntry("response_status", 200);
	}

	@Test
	void differentUpdateBuiltOnAReplacedVersionIsRefusedAsAReusedVersionKey() {
		sync(product(0, "Mug", 1200));
		sync(product(1, "Mug", 1500));
		HttpResponse<byte[]> stale = sync(product(1, "Cup", 900));
		assertThat(stale.statusCode()).isEqualTo(422);
		assertThat(stale.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		JsonNode problem = json(stale);
		assertThat(problem.get("type").asString()).isEqualTo("urn:problem-type:idempotency:key-reused");
		assertThat(problem.get("baseVersion").asLong()).isOne();
		assertThat(problem.get("currentVersion").asLong()).isEqualTo(2);
		assertThat(row()).containsEntry("version", 2L).containsEntry("name", "Mug").containsEntry("price", 1500L);
	}

	@Test
	void updateBuiltOnAReplacedVersionWhoseRecordIsGoneIsAStoredStaleRefusal() {
		sync(product(0, "Mug", 1200));
		sync(product(1, "Mug", 1500));
		this.db.expireRecord(SyncController.PRODUCT_OPERATION, "sync:product:" + this.id + ":0");
		HttpResponse<byte[]> stale = sync(product(0, "Cup", 900));
		HttpResponse<byte[]> again = sync(product(0, "Cup", 900));
		assertThat(stale.statusCode()).isEqualTo(412);
		assertThat(json(stale).get("type").asString()).isEqualTo(STALE);
		assertThat(json(stale).get("currentVersion").asLong()).isEqualTo(2);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(again.body()).isEqualTo(stale.body());
		assertThat(row()).containsEntry("version", 2L).containsEntry("name", "Mug");
	}

	@Test
	void updateBuiltOnAVersionNotReachedYetIsRefusedWithoutUsingUpItsKey() {
		sync(product(0, "Mug", 1200));
		HttpResponse<byte[]> ahead = sync(product(5, "Mug", 1500));
		assertThat(ahead.statusCode()).isEqualTo(412);
		JsonNode problem = json(ahead);
		assertThat(problem.get("type").asString()).isEqualTo("https://payments.example/problems/unknown-version");
		assertThat(problem.get("currentVersion").asLong()).isOne();
		HttpResponse<byte[]> unknownProduct = this.rest.put("/sync/products/" + newId("SKU-"), product(3, "Mug", 1));
		assertThat(unknownProduct.statusCode()).isEqualTo(412);
		assertThat(json(unknownProduct).get("currentVersion").asLong()).isZero();
		assertThat(this.db.records(SyncController.PRODUCT_OPERATION)).isOne();
		assertThat(row()).containsEntry("version", 1L);
	}

	@Test
	void malformedUpdateIsRefusedBeforeItsVersionIsUsedUp() {
		sync(product(0, "Mug", 1200));
		HttpResponse<byte[]> invalid = sync("{\"baseVersion\":1,\"name\":\"\",\"price\":-1,\"currency\":\"EURO\"}");
		assertThat(invalid.statusCode()).isEqualTo(400);
		assertThat(json(invalid).get("type").asString()).isEqualTo("https://payments.example/problems/invalid-sync");
		assertThat(json(invalid).get("errors").size()).isEqualTo(3);
		assertThat(this.db.record(SyncController.PRODUCT_OPERATION, "sync:product:" + this.id + ":1")).isNull();
		assertThat(sync(product(1, "Mug", 1500)).statusCode()).isEqualTo(200);
	}

	@Test
	void updateThatChangesNothingStillMakesANewVersion() {
		JsonNode created = json(sync(product(0, "Mug", 1200)));
		JsonNode same = json(sync(product(1, "Mug", 1200)));
		assertThat(same.get("version").asLong()).isEqualTo(2);
		assertThat(same.get("updatedAt")).isEqualTo(created.get("updatedAt"));
		assertThat(json(sync(product(2, "Mug", 1300))).get("version").asLong()).isEqualTo(3);
	}

	@Test
	void versionColumnRefusesAnUpdateWhenAnotherTransactionReplacesTheVersionMidway() throws Exception {
		sync(product(0, "Mug", 1200));
		CompletableFuture<HttpResponse<byte[]>> update;
		try (Connection other = database().connect(); Connection observer = database().connect()) {
			other.setAutoCommit(false);
			try (Statement statement = other.createStatement()) {
				statement.executeUpdate(
						"UPDATE product SET name = 'Other', version = version + 1 WHERE id = '" + this.id + "'");
			}
			update = CompletableFuture.supplyAsync(() -> sync(product(1, "Mug", 1500)));
			LockWaits.awaitWaiter(observer);
			other.commit();
		}
		HttpResponse<byte[]> refused = update.get(30, TimeUnit.SECONDS);
		assertThat(refused.statusCode()).isEqualTo(412);
		assertThat(json(refused).get("type").asString()).isEqualTo(STALE);
		assertThat(json(refused).get("currentVersion").asLong()).isEqualTo(2);
		assertThat(row()).containsEntry("version", 2L).containsEntry("name", "Other").containsEntry("price", 1200L);
	}

	private HttpResponse<byte[]> sync(String body) {
		return this.rest.put("/sync/products/" + this.id, body);
	}

	private Map<String, Object> row() {
		return this.db.rows("SELECT name, price, version FROM product WHERE id = ?", this.id).get(0);
	}

}
