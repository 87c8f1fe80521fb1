package io.github.idempotency.web.servlet;

import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import io.github.idempotency.TenantResolver;
import io.github.idempotency.web.TenantHeader;

/**
 * Resolves the tenant of the current Servlet request by its {@link TenantHeader} rule and the
 * principal authenticated for the current thread.
 */
class DefaultTenantResolver implements TenantResolver {

	private final Supplier<String> principal;

	private final TenantHeader tenantHeader;

	/**
	 * Create a resolver.
	 * @param principal supplies the name of the authenticated principal, or {@code null}
	 * @param header the tenant header, such as {@code X-Tenant-Id}
	 * @param defaultTenant the tenant of requests that name none
	 */
	public DefaultTenantResolver(Supplier<String> principal, String header, String defaultTenant) {
		this.principal = principal;
		this.tenantHeader = new TenantHeader(header, defaultTenant);
	}

	@Override
	public String resolveTenant() {
		HttpServletRequest request = currentRequest();
		Enumeration<String> headers = (request != null) ? request.getHeaders(this.tenantHeader.header()) : null;
		List<String> values = (headers != null) ? Collections.list(headers) : null;
		return this.tenantHeader.resolve(values, this.principal.get());
	}

	private static HttpServletRequest currentRequest() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		return (attributes instanceof ServletRequestAttributes servlet) ? servlet.getRequest() : null;
	}

}
