package io.github.idempotency.sample.fulfilment;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Lists shipments: {@code GET /shipments}, optionally {@code ?orderId=...}.
 */
@RestController
class ShipmentController {

	private final ShipmentRepository shipments;

	ShipmentController(ShipmentRepository shipments) {
		this.shipments = shipments;
	}

	@GetMapping("/shipments")
	List<Shipment> shipments(@RequestParam(required = false) String orderId) {
		return this.shipments.find(orderId);
	}

}
