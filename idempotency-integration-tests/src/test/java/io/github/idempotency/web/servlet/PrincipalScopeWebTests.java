package io.github.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With Spring Security, records are bound to the authenticated principal as well as the tenant: the
 * same key from two users of one tenant is two unrelated requests, never a replay of the other's.
 */
@SpringBootTest(classes = { WebTestApplication.class, PrincipalScopeWebTests.Security.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "idempotency.operations.reports.accept-after=0s")
class PrincipalScopeWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webprincipal");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	WebTestApplication.Gate gate;

	@AfterEach
	void openGate() {
		this.gate.open();
	}

	@Test
	void sameKeyFromTwoPrincipalsOfOneTenantRunsTwiceAndReplaysOnlyToItsOwner() {
		String value = UUID.randomUUID().toString();
		String key = "k-" + value;
		HttpResponse<byte[]> alice = post("alice", key, value);
		HttpResponse<byte[]> bob = post("bob", key, value);
		HttpResponse<byte[]> aliceAgain = post("alice", key, value);
		assertThat(alice.statusCode()).isEqualTo(201);
		assertThat(bob.statusCode()).isEqualTo(201);
		assertThat(bob.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(bob.body()).isNotEqualTo(alice.body());
		assertThat(aliceAgain.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(aliceAgain.body()).isEqualTo(alice.body());
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = 'effects' AND detail = ?",
				Long.class, value)).isEqualTo(2);
		assertThat(this.jdbc.queryForList("SELECT tenant_id FROM idempotency_record WHERE idempotency_key = ?",
				String.class, key))
			.containsExactlyInAnyOrder("acme|principal:alice", "acme|principal:bob");
	}

	@Test
	void unauthenticatedRequestIsRefusedBeforeAnythingIsClaimed() {
		String value = UUID.randomUUID().toString();
		HttpResponse<byte[]> response = new Http(this.port).post("/effects")
			.key("k-" + value)
			.tenant("acme")
			.json("{\"value\":\"" + value + "\"}")
			.send();
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE idempotency_key = ?",
				Long.class, "k-" + value)).isZero();
	}

	@Test
	void anAcceptedRequestsWorkRunsAsItsPrincipalAndItsStatusAnswersOnlyThatPrincipal() throws Exception {
		String value = UUID.randomUUID().toString();
		this.gate.close();
		HttpResponse<byte[]> accepted = new Http(this.port).post("/reports")
			.header("Authorization", basic("alice"))
			.key("k-" + value)
			.tenant("acme")
			.json("{\"value\":\"" + value + "\"}")
			.send();
		assertThat(accepted.statusCode()).isEqualTo(202);
		String link = accepted.headers().firstValue("Location").orElseThrow();
		assertThat(this.gate.awaitEntered()).isTrue();
		assertThat(status("bob", link).statusCode()).isEqualTo(404);
		assertThat(status("alice", link).statusCode()).isEqualTo(200);
		this.gate.open();
		HttpResponse<byte[]> done = await().atMost(Duration.ofSeconds(30))
			.until(() -> status("alice", link),
					(response) -> response.headers().firstValue("Idempotent-Replayed").isPresent());
		assertThat(done.statusCode()).isEqualTo(201);
		assertThat(Http.text(done)).contains("\"principal\":\"alice\"").contains("\"thread\":\"idempotency-accepted-");
		assertThat(status("bob", link).statusCode()).isEqualTo(404);
	}

	private HttpResponse<byte[]> status(String user, String link) {
		return new Http(this.port).get(link).header("Authorization", basic(user)).tenant("acme").send();
	}

	private static String basic(String user) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
	}

	private HttpResponse<byte[]> post(String user, String key, String value) {
		String credentials = Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
		return new Http(this.port).post("/effects")
			.header("Authorization", "Basic " + credentials)
			.key(key)
			.tenant("acme")
			.json("{\"value\":\"" + value + "\"}")
			.send();
	}

	@TestConfiguration(proxyBeanMethods = false)
	@EnableWebSecurity
	static class Security {

		@Bean
		SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.disable())
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(User.withUsername("alice").password("{noop}secret").roles("USER").build(),
					User.withUsername("bob").password("{noop}secret").roles("USER").build());
		}

	}

}
