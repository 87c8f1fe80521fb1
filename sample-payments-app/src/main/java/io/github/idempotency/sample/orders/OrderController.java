package io.github.idempotency.sample.orders;

import java.net.URI;
import java.util.List;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * The orders API: {@code POST /orders} places one order per cart mandate, keyed by the mandate,
 * in ATOMIC mode ({@code idempotency.operations.place-order.mode}) so that the order row and the
 * stored response commit in one transaction; the {@code redis} profile makes it LEASED.
 */
@RestController
@RequestMapping("/orders")
public class OrderController {

	/**
	 * Name of the idempotent operation that places orders.
	 */
	public static final String PLACE_OPERATION = "place-order";

	private final OrderService orders;

	OrderController(OrderService orders) {
		this.orders = orders;
	}

	@Idempotent(operation = PLACE_OPERATION, key = "@orderKeys.keyFor(#request)")
	@PostMapping
	public ResponseEntity<Order> place(@RequestBody CreateOrderRequest request) {
		Order order = this.orders.place(request);
		return ResponseEntity.created(URI.create("/orders/" + order.id())).body(order);
	}

	@GetMapping("/{id}")
	public Order get(@PathVariable long id) {
		return this.orders.find(id);
	}

	@GetMapping
	public List<Order> list(@RequestParam String customerId) {
		return this.orders.findByCustomer(customerId);
	}

}
