package io.github.idempotency.actuate;

import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;

/**
 * The {@code idempotencydashboard} Actuator endpoint: the operator dashboard page, one HTML file
 * that reads and releases records through the {@code idempotency} endpoint beside it, so that it
 * is served on the management port and base path and secured like every other endpoint.
 */
@WebEndpoint(id = "idempotencydashboard")
class IdempotencyDashboardEndpoint {

	static final String PAGE = "io/github/idempotency/dashboard/dashboard.html";

	private final Resource page = new ClassPathResource(PAGE, IdempotencyDashboardEndpoint.class.getClassLoader());

	/**
	 * Return the dashboard page.
	 * @return the page
	 */
	@ReadOperation(produces = "text/html; charset=UTF-8")
	public Resource page() {
		return this.page;
	}

}
