package io.github.idempotency.bench.minimal;

import java.net.URI;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * {@code POST /items}: guarded by {@code @Idempotent}, which {@code idempotency.enabled=false}
 * switches off for the baseline and {@code idempotency.operations.create-item.mode} sets to LEASED
 * or ATOMIC.
 */
@RestController
class ItemController {

	private final Items items;

	ItemController(Items items) {
		this.items = items;
	}

	@PostMapping("/items")
	@Idempotent(operation = "create-item")
	ResponseEntity<Item> create(@RequestBody NewItem request) {
		Item item = this.items.add(request);
		return ResponseEntity.created(URI.create("/items/" + item.id())).body(item);
	}

	record NewItem(String name, int quantity) {
	}

	record Item(long id, String name, int quantity) {
	}

}
