package io.github.idempotency.sample.sync;

import java.net.URI;
import java.util.List;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * The data sync API: {@code PUT /sync/products/{id}} and {@code PUT /sync/users/{id}} apply an
 * update built on a version of the entity, keyed {@code sync:{entity}:{id}:{baseVersion}}, so a
 * duplicate is replayed and an update built on an older version is refused with {@code 412}.
 */
@RestController
@RequestMapping("/sync")
public class SyncController {

	/**
	 * Name of the idempotent operation that synchronises products.
	 */
	public static final String PRODUCT_OPERATION = "sync-product";

	/**
	 * Name of the idempotent operation that synchronises users.
	 */
	public static final String USER_OPERATION = "sync-user";

	private final ProductSyncService products;

	private final UserSyncService users;

	SyncController(ProductSyncService products, UserSyncService users) {
		this.products = products;
		this.users = users;
	}

	@Idempotent(operation = PRODUCT_OPERATION, key = "@syncKeys.product(#id, #request)")
	@PutMapping("/products/{id}")
	public ResponseEntity<ProductView> syncProduct(@PathVariable String id, @RequestBody ProductSyncRequest request) {
		return answer(this.products.sync(id, request), "/sync/products/" + id);
	}

	@GetMapping("/products/{id}")
	public ProductView product(@PathVariable String id) {
		return this.products.find(id);
	}

	@Idempotent(operation = USER_OPERATION, key = "@syncKeys.user(#id, #request)")
	@PutMapping("/users/{id}")
	public ResponseEntity<UserView> syncUser(@PathVariable String id, @RequestBody UserSyncRequest request) {
		return answer(this.users.sync(id, request), "/sync/users/" + id);
	}

	@GetMapping("/users/{id}")
	public UserView user(@PathVariable String id) {
		return this.users.find(id);
	}

	@GetMapping("/users/{id}/consents")
	public List<ConsentChangeView> consents(@PathVariable String id) {
		return this.users.consentHistory(id);
	}

	private static <T> ResponseEntity<T> answer(Synced<T> synced, String location) {
		return synced.created() ? ResponseEntity.created(URI.create(location)).body(synced.entity())
				: ResponseEntity.ok(synced.entity());
	}

}
