package io.github.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.stereotype.Service;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Authorization decides before a key is claimed: a caller whom {@code @PreAuthorize} refuses
 * leaves no record and no failed attempt, on a handler and on a bean method alike.
 */
@SpringBootTest(classes = { WebTestApplication.class, MethodSecurityWebTests.Security.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MethodSecurityWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webmethodsecurity");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	Vault vault;

	@Test
	void aHandlerRefusedByPreAuthorizeClaimsNothing() {
		String key = UUID.randomUUID().toString();
		HttpResponse<byte[]> refused = post("alice", key);
		assertThat(refused.statusCode()).isEqualTo(403);
		assertThat(records(key)).as("records of any status, released ones included").isZero();

		HttpResponse<byte[]> allowed = post("root", key);
		assertThat(allowed.statusCode()).isEqualTo(201);
		assertThat(records(key)).isOne();
	}

	@Test
	void aTransactionalBeanMethodRefusedByPreAuthorizeClaimsNothing() {
		String key = UUID.randomUUID().toString();
		org.springframework.security.core.context.SecurityContextHolder.getContext()
			.setAuthentication(org.springframework.security.authentication.UsernamePasswordAuthenticationToken
				.authenticated("alice", "n/a", java.util.List.of(
						new org.springframework.security.core.authority.SimpleGrantedAuthority("ROLE_USER"))));
		try {
			assertThatExceptionOfType(org.springframework.security.authorization.AuthorizationDeniedException.class)
				.isThrownBy(() -> this.vault.open(key));
		}
		finally {
			org.springframework.security.core.context.SecurityContextHolder.clearContext();
		}
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE idempotency_key LIKE ?",
				Long.class, "%" + key + "%")).isZero();
	}

	private long records(String key) {
		return this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE idempotency_key = ?",
				Long.class, key);
	}

	private HttpResponse<byte[]> post(String user, String key) {
		String credentials = Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
		return new Http(this.port).post("/admin/effects")
			.header("Authorization", "Basic " + credentials)
			.key(key)
			.json("{\"value\":\"" + key + "\"}")
			.send();
	}

	@RestController
	static class AdminController {

		@Idempotent(operation = "admin-effects")
		@PreAuthorize("hasRole('ADMIN')")
		@PostMapping("/admin/effects")
		ResponseEntity<Map<String, Object>> create(@RequestBody Map<String, Object> body) {
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("created", body.get("value")));
		}

	}

	@Service
	static class Vault {

		@Idempotent(operation = "vault", key = "'vault:' + #key")
		@PreAuthorize("hasRole('ADMIN')")
		@Transactional
		public String open(String key) {
			return "opened " + key;
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	@EnableWebSecurity
	@EnableMethodSecurity
	static class Security {

		@Bean
		AdminController adminController() {
			return new AdminController();
		}

		@Bean
		Vault vault() {
			return new Vault();
		}

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
					User.withUsername("root").password("{noop}secret").roles("ADMIN").build());
		}

	}

}
