package io.github.idempotency.sample.sessions;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.annotation.IdempotentSequence;

/**
 * The session cart API: {@code PATCH /sessions/{id}/cart} applies an update numbered by the
 * client, keyed {@code session_update:{sessionId}:cart:{sequence}}; once a number has been
 * applied, a lower one is refused ({@code 409} stale sequence) and a duplicate is replayed, so the
 * cart is the accepted updates applied in increasing order, whatever order they arrive in.
 */
@RestController
@RequestMapping("/sessions/{id}/cart")
public class SessionCartController {

	/**
	 * Name of the idempotent operation that updates session carts.
	 */
	public static final String UPDATE_OPERATION = "update-session-cart";

	private final SessionCartService carts;

	SessionCartController(SessionCartService carts) {
		this.carts = carts;
	}

	@Idempotent(operation = UPDATE_OPERATION, key = "@sessionCartKeys.keyFor(#id, #update)")
	@IdempotentSequence(scope = "@sessionCartKeys.scopeOf(#id)", value = "#update.sequence()")
	@PatchMapping
	public SessionCart update(@PathVariable String id, @RequestBody CartUpdateRequest update) {
		return this.carts.apply(id, update);
	}

	@GetMapping
	public SessionCart get(@PathVariable String id) {
		return this.carts.find(id);
	}

}
