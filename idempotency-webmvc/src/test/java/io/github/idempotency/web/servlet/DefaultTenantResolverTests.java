package io.github.idempotency.web.servlet;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import io.github.idempotency.InvalidTenantException;
import io.github.idempotency.KeyHashes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link DefaultTenantResolver} with {@link SecurityPrincipalName}.
 */
class DefaultTenantResolverTests {

	private final DefaultTenantResolver resolver = new DefaultTenantResolver(new SecurityPrincipalName(),
			"X-Tenant-Id", "default");

	@AfterEach
	void clearThreadState() {
		RequestContextHolder.resetRequestAttributes();
		SecurityContextHolder.clearContext();
	}

	@Test
	void outsideARequestTheTenantIsTheDefault() {
		assertThat(this.resolver.resolveTenant()).isEqualTo("default");
	}

	@Test
	void requestWithoutTheHeaderBelongsToTheDefaultTenant() {
		request();
		assertThat(this.resolver.resolveTenant()).isEqualTo("default");
	}

	@Test
	void headerNamesTheTenant() {
		request("acme");
		assertThat(this.resolver.resolveTenant()).isEqualTo("acme");
	}

	@Test
	void tenantHeaderSentTwiceIsRefused() {
		request("acme", "globex");
		assertThatExceptionOfType(InvalidTenantException.class).isThrownBy(this.resolver::resolveTenant)
			.satisfies((ex) -> assertThat(ex.getBody().getType()).hasToString("urn:problem-type:idempotency:invalid-tenant"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "two words", "pipe|separated", "tab\there", "clé", "\u0000" })
	void unusableTenantNamesAreRefused(String tenant) {
		request(tenant);
		assertThatExceptionOfType(InvalidTenantException.class).isThrownBy(this.resolver::resolveTenant);
	}

	@Test
	void tenantNamesOfUpTo128CharactersAreAccepted() {
		request("t".repeat(128));
		assertThat(this.resolver.resolveTenant()).isEqualTo("t".repeat(128));
		request("t".repeat(129));
		assertThatExceptionOfType(InvalidTenantException.class).isThrownBy(this.resolver::resolveTenant);
	}

	@Test
	void authenticatedPrincipalIsPartOfTheTenant() {
		request("acme");
		authenticate("alice");
		assertThat(this.resolver.resolveTenant()).isEqualTo("acme|principal:alice");
	}

	@Test
	void principalsOfOneTenantHaveSeparateScopes() {
		request("acme");
		authenticate("alice");
		String alice = this.resolver.resolveTenant();
		authenticate("bob");
		assertThat(this.resolver.resolveTenant()).isNotEqualTo(alice);
	}

	@Test
	void principalWithAnUnusableNameIsHashedIntoTheTenant() {
		request("acme");
		authenticate("zoë@example.com");
		assertThat(this.resolver.resolveTenant())
			.isEqualTo("sha256:" + KeyHashes.sha256Hex("acme|principal:zoë@example.com"));
	}

	@Test
	void headerCannotNameTheScopeOfAnAuthenticatedPrincipal() {
		request("acme");
		authenticate("zoë@example.com");
		String victim = this.resolver.resolveTenant();
		SecurityContextHolder.clearContext();
		request(victim);
		String forged;
		try {
			forged = this.resolver.resolveTenant();
		}
		catch (InvalidTenantException ex) {
			forged = null;
		}
		assertThat(forged).isNotEqualTo(victim);
	}

	@Test
	void anonymousUserIsNoPrincipal() {
		request("acme");
		SecurityContextHolder.getContext()
			.setAuthentication(new AnonymousAuthenticationToken("key", "anonymousUser",
					AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS")));
		assertThat(this.resolver.resolveTenant()).isEqualTo("acme");
	}

	private static void request(String... tenants) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/payments");
		List.of(tenants).forEach((tenant) -> request.addHeader("X-Tenant-Id", tenant));
		RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
	}

	private static void authenticate(String name) {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(name, "n/a",
					AuthorityUtils.createAuthorityList("ROLE_USER")));
	}

}
