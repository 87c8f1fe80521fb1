package io.github.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.web.HttpContractTests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP contract on Spring MVC with the replay cache on: the same suite, and replays answered
 * from the cache that are the store's, byte for byte, in their own tenant only.
 */
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "idempotency.stored-headers=X-Request-Trace", "idempotency.max-body-size=2KB",
				"idempotency.replay-cache.enabled=true" })
class MvcReplayCacheHttpContractTests extends HttpContractTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webcontract_cache");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@Test
	void aReplayFromTheCacheIsTheStoresReplayByteForByte() {
		String value = unique();
		HttpResponse<byte[]> first = this.http.post("/effects").key("k-" + value).json(json(value)).send();
		HttpResponse<byte[]> fromStore = this.http.post("/effects").key("k-" + value).json(json(value)).send();
		// Gone from the store, so that only the cache can answer.
		this.jdbc.update("DELETE FROM idempotency_record WHERE idempotency_key = ?", "k-" + value);
		HttpResponse<byte[]> fromCache = this.http.post("/effects").key("k-" + value).json(json(value)).send();
		assertThat(fromCache.statusCode()).isEqualTo(first.statusCode());
		assertThat(fromCache.body()).isEqualTo(fromStore.body()).isEqualTo(first.body());
		assertThat(withoutDate(fromCache)).isEqualTo(withoutDate(fromStore));
		assertThat(effects("effects", value)).isOne();
	}

	@Test
	void aCachedReplayNeverAnswersAnotherTenant() {
		String value = unique();
		for (int i = 0; i < 2; i++) {
			this.http.post("/effects").key("k-" + value).header("X-Tenant-Id", "acme").json(json(value)).send();
		}
		HttpResponse<byte[]> globex = this.http.post("/effects")
			.key("k-" + value)
			.header("X-Tenant-Id", "globex")
			.json(json(value))
			.send();
		assertThat(globex.statusCode()).isEqualTo(201);
		assertThat(globex.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(effects("effects", value)).isEqualTo(2);
	}

	private static Map<String, List<String>> withoutDate(HttpResponse<byte[]> response) {
		Map<String, List<String>> headers = new TreeMap<>(response.headers().map());
		headers.remove("date");
		return headers;
	}

}
