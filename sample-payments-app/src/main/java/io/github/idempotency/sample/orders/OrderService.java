package io.github.idempotency.sample.orders;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.github.idempotency.sample.mandates.CartItem;
import io.github.idempotency.sample.mandates.CartMandate;
import io.github.idempotency.sample.mandates.CartMandateNotFoundException;
import io.github.idempotency.sample.mandates.CartMandateService;

/**
 * Places one order per cart mandate. Called from an ATOMIC operation, its writes join the
 * transaction of the idempotency claim, so the order and the stored response commit together or
 * not at all; called from a LEASED one (the {@code redis} profile), a retry that takes over after
 * a crash finds the order already placed and answers with it.
 */
@Service
public class OrderService {

	private final OrderRepository orders;

	private final CartMandateService mandates;

	private final ApplicationEventPublisher events;

	OrderService(OrderRepository orders, CartMandateService mandates, ApplicationEventPublisher events) {
		this.orders = orders;
		this.mandates = mandates;
		this.events = events;
	}

	/**
	 * Place the order of a mandate, or return the one already placed from it.
	 * @param request the request
	 * @return the order
	 * @throws CartMandateNotFoundException if there is no such mandate
	 * @throws CartMandateExpiredException if the mandate has expired and has no order yet
	 */
	@Transactional
	public Order place(CreateOrderRequest request) {
		String mandateId = request.cartMandateId();
		Order existing = this.orders.findByCartMandateId(mandateId).orElse(null);
		if (existing != null) {
			return existing;
		}
		CartMandate mandate = this.mandates.find(mandateId);
		Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
		if (mandate.isExpiredAt(now)) {
			throw new CartMandateExpiredException(mandate.id(), mandate.expiresAt());
		}
		Order order = this.orders.insert(mandate, now);
		// In the transaction that places the order, which the ATOMIC place-order claim joins: with
		// the kafka or rabbit profile, Spring Modulith's registry stores the event with the order, and
		// externalizes it to order-events once both are committed (a transactional outbox).
		this.events.publishEvent(new OrderPlaced(String.valueOf(order.id()), order.customerId(),
				mandate.items().stream().mapToInt(CartItem::quantity).sum()));
		return order;
	}

	/**
	 * Return an order.
	 * @param id the order id
	 * @return the order
	 * @throws OrderNotFoundException if there is no such order
	 */
	@Transactional(readOnly = true)
	public Order find(long id) {
		return this.orders.findById(id).orElseThrow(() -> new OrderNotFoundException(id));
	}

	/**
	 * Return the orders of a customer, oldest first.
	 * @param customerId the customer
	 * @return the orders
	 */
	@Transactional(readOnly = true)
	public List<Order> findByCustomer(String customerId) {
		return this.orders.findByCustomerId(customerId);
	}

}
