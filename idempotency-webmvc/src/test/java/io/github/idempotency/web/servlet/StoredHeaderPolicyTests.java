package io.github.idempotency.web.servlet;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import io.github.idempotency.web.StoredHeaderPolicy;
import static org.assertj.core.api.Assertions.entry;

/**
 * Tests for {@link StoredHeaderPolicy}.
 */
class StoredHeaderPolicyTests {

	@Test
	void storesContentTypeAndLocationByDefault() {
		assertThat(new StoredHeaderPolicy(List.of()).headers()).containsExactly("Content-Type", "Location");
	}

	@Test
	void storesConfiguredHeadersToo() {
		assertThat(new StoredHeaderPolicy(List.of("X-Request-Trace", "ETag")).headers())
			.containsExactly("Content-Type", "Location", "X-Request-Trace", "ETag");
	}

	@Test
	void listsEachHeaderOnceWhateverItsCase() {
		assertThat(new StoredHeaderPolicy(List.of("location", "ETag", "etag", "CONTENT-TYPE")).headers())
			.containsExactly("Content-Type", "Location", "ETag");
	}

	@ParameterizedTest
	@ValueSource(strings = { "Set-Cookie", "set-cookie", "SET-COOKIE", "Set-Cookie2", "Authorization",
			"Proxy-Authorization", "Proxy-Authenticate", "Connection", "Keep-Alive", "Proxy-Connection", "TE",
			"Trailer", "Transfer-Encoding", "Upgrade", "Content-Length", "Idempotent-Replayed" })
	void refusesCredentialsCookiesAndHopByHopHeaders(String header) {
		assertThatIllegalArgumentException().isThrownBy(() -> new StoredHeaderPolicy(List.of("ETag", header)))
			.withMessageContaining("'" + header + "'")
			.withMessageContaining("must never be stored");
	}

	@Test
	void selectsOnlyAllowedHeadersOfAResponse() {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.setContentType("application/json;charset=UTF-8");
		response.addHeader("Location", "/payments/42");
		response.addHeader("X-Request-Trace", "t-1");
		response.addHeader("X-Request-Trace", "t-2");
		response.addHeader("Set-Cookie", "session=secret");
		response.addHeader("Authorization", "Bearer secret");
		response.addHeader("X-Other", "not configured");
		StoredHeaderPolicy policy = new StoredHeaderPolicy(List.of("X-Request-Trace", "ETag"));
		assertThat(policy.select(response.getContentType(), response::getHeaders)).containsExactly(
				entry("Content-Type", List.of("application/json;charset=UTF-8")),
				entry("Location", List.of("/payments/42")), entry("X-Request-Trace", List.of("t-1", "t-2")));
	}

	@Test
	void selectsAHeaderOnceWhenItIsConfiguredInAnotherCase() {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.addHeader("Location", "/payments/42");
		StoredHeaderPolicy policy = new StoredHeaderPolicy(List.of("location"));
		assertThat(policy.select(response.getContentType(), response::getHeaders)).containsExactly(entry("Location", List.of("/payments/42")));
	}

	@Test
	void selectsNothingFromAResponseWithoutAllowedHeaders() {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.addHeader("Set-Cookie", "session=secret");
		assertThat(new StoredHeaderPolicy(List.of()).select(response.getContentType(), response::getHeaders)).isEmpty();
	}

}
