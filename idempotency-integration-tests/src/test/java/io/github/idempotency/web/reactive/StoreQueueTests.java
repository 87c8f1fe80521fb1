package io.github.idempotency.web.reactive;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.IdempotencyKey;
import io.github.idempotency.store.IdempotencyStore;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.web.servlet.WebTestSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's threads are bounded and so is the number of new requests waiting for them: beyond
 * it a new request is refused at once with 503 and Retry-After, and nothing is stored.
 */
@SpringBootTest(classes = ReactiveWebTestApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "idempotency.webflux.store-threads=1",
				"idempotency.webflux.max-pending=1" })
class StoreQueueTests {

	static {
		ReactiveTests.installBlockHound();
	}

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webfluxqueue");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	IdempotencyStore store;

	@Autowired
	JdbcTemplate jdbc;

	@AfterEach
	void letGo() {
		((HeldClaimStore) this.store).letGo();
	}

	@Test
	void aNewRequestBeyondTheWaitingLimitIsRefusedWith503AndNothingIsStored() throws Exception {
		Http http = new Http(this.port);
		HeldClaimStore held = (HeldClaimStore) this.store;
		String value = UUID.randomUUID().toString();
		held.hold();
		CompletableFuture<HttpResponse<byte[]>> first = http.post("/slow").key("held-" + value).json(json(value))
			.sendAsync();
		assertThat(held.awaitHeldClaim()).isTrue();
		HttpResponse<byte[]> refused = http.post("/slow").key("other-" + value).json(json(value)).send();
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(Http.text(refused)).contains("urn:problem-type:idempotency:store-unavailable");
		assertThat(this.store.find(new IdempotencyKey("default", "slow", "other-" + value))).isEmpty();
		held.letGo();
		assertThat(first.get().statusCode()).isEqualTo(200);
		assertThat(http.post("/slow").key("other-" + value).json(json(value)).send().statusCode()).isEqualTo(200);
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = 'slow' AND detail = ?",
				Long.class, value)).isEqualTo(2);
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
