package io.github.idempotency.sample.payments;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.sample.support.PaymentsDatabase;
import io.github.idempotency.sample.support.PostgresDatasource;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code idempotency.enabled=false}, as in the benchmark baseline, {@code POST /payments}
 * runs unguarded and keys the payment on the raw header or a random key, on PostgreSQL.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "idempotency.enabled=false")
class PaymentsWithoutIdempotencyTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("unguarded");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		PostgresDatasource.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	private Http http;

	private PaymentsDatabase db;

	@BeforeEach
	void setUp() {
		this.http = new Http(this.port);
		this.db = new PaymentsDatabase(this.jdbc);
		this.db.clear();
	}

	@Test
	void createsPaymentWithoutKeyWhenIdempotencyIsDisabled() {
		String request = body(customer("c-"), 2999, "USD");
		HttpResponse<byte[]> first = this.http.post("/payments").json(request).send();
		HttpResponse<byte[]> second = this.http.post("/payments").json(request).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(second.statusCode()).isEqualTo(201);
		assertThat(json(second).get("id")).isNotEqualTo(json(first).get("id"));
		assertThat(this.db.payments()).isEqualTo(2);
		assertThat(this.db.charges()).isEqualTo(2);
		assertThat(this.db.hasTable("idempotency_record")).isFalse();
	}

	@Test
	void fallsBackToRawHeaderKeyForDownstreamIdempotencyWhenIdempotencyIsDisabled() {
		String key = newKey();
		String request = body(customer("c-"), 2999, "USD");
		HttpResponse<byte[]> first = this.http.post("/payments").key(key).json(request).send();
		HttpResponse<byte[]> second = this.http.post("/payments").key(key).json(request).send();
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(second.statusCode()).isEqualTo(201);
		assertThat(second.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(json(second).get("id")).isEqualTo(json(first).get("id"));
		assertThat(this.db.payments()).isOne();
		assertThat(this.db.onlyPayment()).containsEntry("idempotency_key", key);
		assertThat(this.db.charges()).isOne();
		assertThat(this.db.onlyCharge()).containsEntry("idempotency_key", "default:create-payment:" + key);
	}

}
