package io.github.idempotency.web.servlet;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import io.github.idempotency.testsupport.IdempotencyMockMvc;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * The HTTP contract in MockMvc tests, the way applications write them: with Spring Boot's
 * {@code @AutoConfigureMockMvc}, or {@code webAppContextSetup} and {@link IdempotencyMockMvc};
 * a MockMvc without the starter's filter is told so, never run unguarded.
 */
@SpringBootTest(classes = WebTestApplication.class)
@AutoConfigureMockMvc
class MockMvcWebTests {

	static final PostgresTestDatabase database = PostgresTestDatabase.create("webmockmvc");

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		WebTestSupport.register(registry, database);
	}

	@Autowired
	MockMvc autoConfigured;

	@Autowired
	WebApplicationContext context;

	@Test
	void autoConfiguredMockMvcKeepsTheContract() throws Exception {
		assertContract(this.autoConfigured);
	}

	@Test
	void webAppContextSetupWithTheStartersConfigurerKeepsTheContract() throws Exception {
		assertContract(MockMvcBuilders.webAppContextSetup(this.context).apply(IdempotencyMockMvc.idempotency()).build());
	}

	@Test
	void aMockMvcWithoutTheStartersFilterIsToldSoAndRunsNothing() {
		MockMvc withoutFilters = MockMvcBuilders.webAppContextSetup(this.context).build();
		String value = UUID.randomUUID().toString();
		assertThatException().isThrownBy(() -> withoutFilters.perform(post("/effects")
			.with(IdempotencyMockMvc.idempotencyKey())
			.contentType(MediaType.APPLICATION_JSON)
			.content(json(value))))
			.havingRootCause()
			.withMessageContaining("IdempotencyFilter did not see")
			.withMessageContaining("IdempotencyMockMvc.idempotency()");
	}

	private void assertContract(MockMvc mvc) throws Exception {
		String value = UUID.randomUUID().toString();
		String key = "k-" + value;
		MvcResult first = mvc.perform(post("/effects").with(IdempotencyMockMvc.idempotencyKey(key))
			.contentType(MediaType.APPLICATION_JSON)
			.content(json(value))).andReturn();
		MvcResult replay = mvc.perform(post("/effects").with(IdempotencyMockMvc.idempotencyKey(key))
			.contentType(MediaType.APPLICATION_JSON)
			.content(json(value))).andReturn();
		MvcResult other = mvc.perform(post("/effects").with(IdempotencyMockMvc.idempotencyKey(key))
			.contentType(MediaType.APPLICATION_JSON)
			.content(json(value + "-other"))).andReturn();
		MvcResult missing = mvc
			.perform(post("/effects").contentType(MediaType.APPLICATION_JSON).content(json(value)))
			.andReturn();
		assertThat(first.getResponse().getStatus()).isEqualTo(201);
		assertThat(replay.getResponse().getStatus()).isEqualTo(201);
		assertThat(replay.getResponse().getHeader("Idempotent-Replayed")).isEqualTo("true");
		assertThat(replay.getResponse().getContentAsByteArray()).isEqualTo(first.getResponse().getContentAsByteArray());
		assertThat(other.getResponse().getStatus()).isEqualTo(422);
		assertThat(missing.getResponse().getStatus()).isEqualTo(400);
		assertThat(missing.getResponse().getContentType()).isEqualTo("application/problem+json");
	}

	private static String json(String value) {
		return "{\"value\":\"" + value + "\"}";
	}

}
