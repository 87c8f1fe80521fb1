package io.github.idempotency.web.reactive;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.method.configuration.EnableReactiveMethodSecurity;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;
import io.github.idempotency.web.servlet.WebTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * With Spring Security on WebFlux, records are bound to the authenticated principal of the
 * reactive security context as well as the tenant: the same key from two users of one tenant is
 * two unrelated requests, never a replay of the other's; and method security decides before
 * anything is claimed.
 */
@SpringBootTest(classes = { ReactiveWebTestApplication.class, ReactivePrincipalScopeTests.Security.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "idempotency.operations.reports.accept-after=0s" })
class ReactivePrincipalScopeTests {

	static {
		ReactiveTests.installBlockHound();
	}

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webfluxprincipal");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

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
	void theStatusOfAnAcceptedRequestIsFoundOnlyByItsPrincipal() {
		String value = UUID.randomUUID().toString();
		Http http = new Http(this.port);
		HttpResponse<byte[]> accepted = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> http.post("/reports")
			.header("Authorization", basic("alice"))
			.key("k-" + value)
			.tenant("acme")
			.json("{\"value\":\"" + value + "\"}")
			.send());
		assertThat(accepted.statusCode()).isEqualTo(202);
		String link = accepted.headers().firstValue("Location").orElseThrow();
		// Running, or done already and answered with its stored response.
		assertThat(http.get(link).header("Authorization", basic("alice")).tenant("acme").send().statusCode())
			.isIn(200, 201);
		HttpResponse<byte[]> bob = http.get(link).header("Authorization", basic("bob")).tenant("acme").send();
		assertThat(bob.statusCode()).isEqualTo(404);
	}

	private static String basic(String user) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
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

	private HttpResponse<byte[]> post(String user, String key, String value) {
		String credentials = Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
		return new Http(this.port).post("/effects")
			.header("Authorization", "Basic " + credentials)
			.key(key)
			.tenant("acme")
			.json("{\"value\":\"" + value + "\"}")
			.send();
	}

	@Test
	void aCallRefusedByMethodSecurityClaimsNothing() {
		String value = UUID.randomUUID().toString();
		String credentials = Base64.getEncoder().encodeToString("alice:secret".getBytes(StandardCharsets.UTF_8));
		HttpResponse<byte[]> response = new Http(this.port).post("/admin-refunds")
			.header("Authorization", "Basic " + credentials)
			.key("k-" + value)
			.tenant("acme")
			.json("{\"value\":\"" + value + "\"}")
			.send();
		assertThat(response.statusCode()).isEqualTo(403);
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE idempotency_key = ?",
				Long.class, "k-" + value)).isZero();
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM effect WHERE endpoint = 'admin-refunds'",
				Long.class)).isZero();
	}

	@TestConfiguration(proxyBeanMethods = false)
	@EnableWebFluxSecurity
	@EnableReactiveMethodSecurity
	static class Security {

		@Bean
		SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
			return http.authorizeExchange((exchanges) -> exchanges.anyExchange().authenticated())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.disable())
				.build();
		}

		@Bean
		MapReactiveUserDetailsService users() {
			return new MapReactiveUserDetailsService(
					User.withUsername("alice").password("{noop}secret").roles("USER").build(),
					User.withUsername("bob").password("{noop}secret").roles("USER").build());
		}

	}

}
