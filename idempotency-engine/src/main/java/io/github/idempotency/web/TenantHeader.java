package io.github.idempotency.web;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.idempotency.IdempotencyKeys;
import io.github.idempotency.InvalidTenantException;

/**
 * The tenant of an HTTP request: its tenant header, else a fixed default, bound to the
 * authenticated principal when there is one: {@code acme}, or {@code acme|principal:alice}.
 */
public final class TenantHeader {

	private static final int MAX_TENANT_LENGTH = 128;

	private static final String HASHED_SCOPE_PREFIX = "sha256:";

	private final String header;

	private final String defaultTenant;

	/**
	 * Create the tenant rule of requests.
	 * @param header the tenant header, such as {@code X-Tenant-Id}
	 * @param defaultTenant the tenant of requests that name none
	 */
	public TenantHeader(String header, String defaultTenant) {
		this.header = header;
		this.defaultTenant = defaultTenant;
	}

	public String header() {
		return this.header;
	}

	/**
	 * Return the tenant of a request.
	 * @param values the values of the tenant header, empty or {@code null} if it has none
	 * @param principal the name of the authenticated principal, or {@code null}
	 * @return the tenant
	 * @throws InvalidTenantException if the header is sent twice or names an unusable tenant
	 */
	public String resolve(@Nullable List<String> values, @Nullable String principal) {
		String tenant = headerTenant(values);
		return (principal != null && !principal.isEmpty())
				? IdempotencyKeys.fromDerivedValue(tenant + "|principal:" + principal) : tenant;
	}

	private String headerTenant(@Nullable List<String> values) {
		if (values == null || values.isEmpty()) {
			return this.defaultTenant;
		}
		if (values.size() > 1) {
			throw new InvalidTenantException("The " + this.header + " header must be sent only once.");
		}
		String tenant = values.get(0);
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

}
