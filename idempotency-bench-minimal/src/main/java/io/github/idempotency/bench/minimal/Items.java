package io.github.idempotency.bench.minimal;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.github.idempotency.bench.minimal.ItemController.Item;
import io.github.idempotency.bench.minimal.ItemController.NewItem;

/**
 * Writes items: one insert in one transaction.
 */
@Service
class Items {

	private final JdbcClient jdbc;

	Items(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Transactional
	Item add(NewItem request) {
		long id = this.jdbc.sql("INSERT INTO item (name, quantity) VALUES (:name, :quantity) RETURNING id")
			.param("name", request.name())
			.param("quantity", request.quantity())
			.query(Long.class)
			.single();
		return new Item(id, request.name(), request.quantity());
	}

}
