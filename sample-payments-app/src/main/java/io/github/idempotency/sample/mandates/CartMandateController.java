package io.github.idempotency.sample.mandates;

import java.net.URI;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * The cart mandates API: {@code POST /cart-mandates} derives its idempotency key from the cart,
 * so the same cart gets the same mandate without an {@code Idempotency-Key} header.
 */
@RestController
@RequestMapping("/cart-mandates")
public class CartMandateController {

	/**
	 * Name of the idempotent operation that creates cart mandates.
	 */
	public static final String CREATE_OPERATION = "create-cart-mandate";

	private final CartMandateService mandates;

	CartMandateController(CartMandateService mandates) {
		this.mandates = mandates;
	}

	@Idempotent(operation = CREATE_OPERATION, key = "@cartHasher.keyFor(#request)")
	@PostMapping
	public ResponseEntity<CartMandate> create(@RequestBody CreateCartMandateRequest request) {
		CartMandate mandate = this.mandates.create(request);
		return ResponseEntity.created(URI.create("/cart-mandates/" + mandate.id())).body(mandate);
	}

	@GetMapping("/{id}")
	public CartMandate get(@PathVariable String id) {
		return this.mandates.find(id);
	}

}
