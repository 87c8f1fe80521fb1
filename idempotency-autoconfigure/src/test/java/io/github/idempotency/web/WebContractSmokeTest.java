package io.github.idempotency.web;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.test.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "spring.flyway.locations=classpath:db/webtest")
class WebContractSmokeTest {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("websmoke");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::username);
		registry.add("spring.datasource.password", database::password);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Test
	void replaysStoredResponseForCompletedKey() {
		Http http = new Http(this.port);
		HttpResponse<byte[]> first = http.post("/effects").key("k-1").json("{\"a\":1,\"b\":2}").send();
		HttpResponse<byte[]> second = http.post("/effects").key("k-1").json("{ \"b\": 2, \"a\": 1 }").send();
		System.out.println(first.statusCode() + " " + first.headers().map() + " " + Http.text(first));
		System.out.println(second.statusCode() + " " + second.headers().map() + " " + Http.text(second));
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM effect", Long.class)).isEqualTo(1);
	}

}
