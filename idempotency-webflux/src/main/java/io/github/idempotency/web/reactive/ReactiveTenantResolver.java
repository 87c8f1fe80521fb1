package io.github.idempotency.web.reactive;

import java.util.List;

import io.github.idempotency.TenantResolver;
import io.github.idempotency.web.TenantHeader;

/**
 * Resolves the tenant of the reactive request being claimed by its {@link TenantHeader} rule and
 * the principal authenticated for it; outside a request, the default tenant.
 */
final class ReactiveTenantResolver implements TenantResolver {

	private final TenantHeader tenantHeader;

	ReactiveTenantResolver(TenantHeader tenantHeader) {
		this.tenantHeader = tenantHeader;
	}

	@Override
	public String resolveTenant() {
		CurrentRequest request = CurrentRequest.get();
		if (request == null) {
			return this.tenantHeader.resolve(null, null);
		}
		List<String> values = request.exchange().getRequest().getHeaders().get(this.tenantHeader.header());
		return this.tenantHeader.resolve(values, request.principal());
	}

}
