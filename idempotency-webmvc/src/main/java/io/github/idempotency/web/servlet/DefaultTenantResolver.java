package io.github.idempotency.web.servlet;

import java.util.Enumeration;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import io.github.idempotency.InvalidTenantException;
import io.github.idempotency.TenantResolver;
import io.github.idempotency.IdempotencyKeys;

/**
 * Resolves the tenant from a request header, else a fixed default, and binds it to the
 * authenticated principal when there is one: {@code acme}, or {@code acme|principal:alice}.
 */
class DefaultTenantResolver implements TenantResolver {

	private static final int MAX_TENANT_LENGTH = 128;

	private static final String HASHED_SCOPE_PREFIX = "sha256:";

	private final Supplier<String> principal;

	private final String header;

	private final String defaultTenant;

	/**
	 * Create a resolver.
	 * @param principal supplies the name of the authenticated principal, or {@code null}
	 * @param header the tenant header, such as {@code X-Tenant-Id}
	 * @param defaultTenant the tenant of requests that name none
	 */
	public DefaultTenantResolver(Supplier<String> principal, String header, String defaultTenant) {
		this.principal = principal;
		this.header = header;
		this.defaultTenant = defaultTenant;
	}

	@Override
	public String resolveTenant() {
		String tenant = headerTenant();
		String name = this.principal.get();
		return (name != null && !name.isEmpty()) ? IdempotencyKeys.fromDerivedValue(tenant + "|principal:" + name)
				: tenant;
	}

	private String headerTenant() {
		HttpServletRequest request = currentRequest();
		Enumeration<String> values = (request != null) ? request.getHeaders(this.header) : null;
		if (values == null || !values.hasMoreElements()) {
			return this.defaultTenant;
		}
		String tenant = values.nextElement();
		if (values.hasMoreElements()) {
			throw new InvalidTenantException("The " + this.header + " header must be sent only once.");
		}
		if (tenant.isEmpty() || tenant.length() > MAX_TENANT_LENGTH
				|| !tenant.chars().allMatch((c) -> c > 0x20 && c < 0x7F && c != '|')) {
			throw new InvalidTenantException("The " + this.header + " header must be 1 to " + MAX_TENANT_LENGTH
					+ " printable ASCII characters, without spaces or '|'.");
		}
		if (tenant.startsWith(HASHED_SCOPE_PREFIX)) {
			// The scope of a principal whose name is not key-shaped is hashed to this form
			throw new InvalidTenantException(
					"The " + this.header + " header must not start with '" + HASHED_SCOPE_PREFIX + "'.");
		}
		return tenant;
	}

	private static HttpServletRequest currentRequest() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		return (attributes instanceof ServletRequestAttributes servlet) ? servlet.getRequest() : null;
	}

}
