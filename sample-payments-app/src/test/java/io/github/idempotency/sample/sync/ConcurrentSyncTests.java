package io.github.idempotency.sample.sync;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.idempotency.sample.support.Duplicates;
import io.github.idempotency.sample.support.PostgresFlowTest;
import io.github.idempotency.sample.support.Rest;
import io.github.idempotency.sample.support.TableLock;

import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.sync.Syncs.newId;
import static io.github.idempotency.sample.sync.Syncs.product;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrent syncs of one product built on one version, from real threads, while a table lock
 * holds the first inside its update: duplicates wait for it and replay it (ATOMIC), different
 * updates are refused as stale, and the version rises by exactly one.
 */
class ConcurrentSyncTests extends PostgresFlowTest {

	private static final int REQUESTS = 8;

	private Rest rest;

	private String id;

	@BeforeEach
	void createProduct() {
		this.rest = new Rest(this.port);
		this.id = newId("SKU-");
		assertThat(this.rest.put("/sync/products/" + this.id, product(0, "Mug", 1200)).statusCode()).isEqualTo(201);
	}

	@Test
	void concurrentDuplicatesOfAnUpdateApplyItOnce() throws Exception {
		Duplicates updates;
		try (TableLock lock = TableLock.exclusive(database(), "product")) {
			updates = Duplicates.send(REQUESTS, (i) -> this.rest.put("/sync/products/" + this.id,
					product(1, "Mug", 1500)));
			lock.awaitWaiter();
			assertThat(updates.answered()).isZero();
		}
		HttpResponse<byte[]> original = updates.assertOneOriginalAndOnlyReplaysOrConflicts(200);
		assertThat(json(original).get("version").asLong()).isEqualTo(2);
		assertThat(version()).isEqualTo(2);
	}

	@Test
	void concurrentDifferentUpdatesOfOneVersionApplyOneAndRefuseTheOthersAsAReusedVersion() throws Exception {
		Duplicates updates;
		try (TableLock lock = TableLock.exclusive(database(), "product")) {
			updates = Duplicates.send(REQUESTS, (i) -> this.rest.put("/sync/products/" + this.id,
					product(1, "Mug " + i, 1500 + i)));
			lock.awaitWaiter();
		}
		List<HttpResponse<byte[]>> answers = updates.answers();
		List<HttpResponse<byte[]>> applied = answers.stream().filter((answer) -> answer.statusCode() == 200).toList();
		assertThat(applied).hasSize(1);
		assertThat(answers).filteredOn((answer) -> answer.statusCode() != 200)
			.hasSize(REQUESTS - 1)
			.allSatisfy((answer) -> {
				assertThat(answer.statusCode()).isEqualTo(422);
				assertThat(json(answer).get("type").asString()).isEqualTo("urn:problem-type:idempotency:key-reused");
				assertThat(json(answer).get("currentVersion").asLong()).isEqualTo(2);
			});
		String winner = json(applied.get(0)).get("name").asString();
		assertThat(this.db.rows("SELECT name, version FROM product WHERE id = ?", this.id).get(0))
			.containsEntry("name", winner)
			.containsEntry("version", 2L);
	}

	private long version() {
		return (Long) this.db.rows("SELECT version FROM product WHERE id = ?", this.id).get(0).get("version");
	}

}
