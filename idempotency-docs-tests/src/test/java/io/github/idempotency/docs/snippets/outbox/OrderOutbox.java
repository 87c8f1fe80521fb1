package io.github.idempotency.docs.snippets.outbox;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.RoutingTarget;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;

/**
 * The transactional outbox with Spring Modulith: the event of an ATOMIC operation commits with its
 * writes and its claim, and is sent once committed, with its deduplication id as a header. Not a
 * bean here: it compiles, with no broker to send to.
 */
class OrderOutbox {

	private final ApplicationEventPublisher events;

	private final Orders orders;

	OrderOutbox(ApplicationEventPublisher events, Orders orders) {
		this.events = events;
		this.orders = orders;
	}

	// tag::publish[]
	@Idempotent(operation = "place-order", mode = IdempotencyMode.ATOMIC)
	@PostMapping("/orders")
	@Transactional
	public Order place(@RequestBody OrderRequest request) {
		Order order = this.orders.insert(request);
		// Stored by Spring Modulith's registry in this transaction, with the order and the claim.
		this.events.publishEvent(new OrderPlaced(order.id(), order.items()));
		return order;
	}
	// end::publish[]

	// tag::externalize[]
	@Bean
	EventExternalizationConfiguration orderEventsExternalization() {
		return EventExternalizationConfiguration.externalizing()
			.selectByType(OrderPlaced.class)
			.route(OrderPlaced.class, (event) -> RoutingTarget.forTarget("order-events").andKey(event.orderId()))
			.headers(OrderPlaced.class, (event) -> Map.of("Idempotency-Key",
					("order-placed:" + event.orderId()).getBytes(StandardCharsets.UTF_8)))
			.build();
	}
	// end::externalize[]

	record OrderRequest(String cartId) {
	}

	record Order(String id, int items) {
	}

	record OrderPlaced(String orderId, int items) {
	}

	interface Orders {

		Order insert(OrderRequest request);

	}

}
