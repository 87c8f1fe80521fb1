package io.github.idempotency.sample.sync;

import java.time.Instant;
import java.time.ZoneOffset;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Reads the committed version of a synchronised entity outside the persistence context, and
 * creates entities at version 1 with plain SQL: JPA would take an entity whose version is set as
 * detached, and start a new one at 0, the version that means "not there yet".
 */
@Repository
class SyncRows {

	private final JdbcClient jdbc;

	SyncRows(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Return an entity's version.
	 * @param entity {@code product} or {@code user}
	 * @param id the entity's id
	 * @return its version, or {@code 0} if there is no such entity
	 */
	long currentVersion(String entity, String id) {
		String table = switch (entity) {
			case SyncKeys.PRODUCT -> "product";
			case SyncKeys.USER -> "app_user";
			default -> throw new IllegalArgumentException("Unknown entity " + entity);
		};
		return this.jdbc.sql("SELECT version FROM " + table + " WHERE id = ?")
			.param(id)
			.query(Long.class)
			.optional()
			.orElse(0L);
	}

	/**
	 * Create a product at version 1.
	 * @param id the product id
	 * @param request the request
	 * @param now the current time
	 * @return the product
	 */
	ProductView insertProduct(String id, ProductSyncRequest request, Instant now) {
		this.jdbc.sql("INSERT INTO product (id, name, price, currency, version, updated_at) VALUES (?, ?, ?, ?, 1, ?)")
			.params(id, request.name(), request.price(), request.currency(), now.atOffset(ZoneOffset.UTC))
			.update();
		return new ProductView(id, request.name(), request.price(), request.currency(), 1, now);
	}

	/**
	 * Create a user at version 1, without consents.
	 * @param id the user id
	 * @param request the request
	 * @param now the current time
	 */
	void insertUser(String id, UserSyncRequest request, Instant now) {
		this.jdbc
			.sql("INSERT INTO app_user (id, email, display_name, version, updated_at) VALUES (?, ?, ?, 1, ?)")
			.params(id, request.email(), request.displayName(), now.atOffset(ZoneOffset.UTC))
			.update();
	}

}
