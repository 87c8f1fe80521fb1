package io.github.idempotency;

/**
 * Resolves the scope that keys belong to, so that a key from one tenant or principal never
 * matches another's record. Like {@code AuditorAware}, it reads thread-bound state such as the
 * current HTTP request or security context.
 */
@FunctionalInterface
public interface TenantResolver {

	/**
	 * Return the tenant of the current request or call.
	 * @return the tenant, never {@code null} nor empty, at most 255 characters
	 * @throws InvalidTenantException if the request names an unusable tenant
	 */
	String resolveTenant();

}
