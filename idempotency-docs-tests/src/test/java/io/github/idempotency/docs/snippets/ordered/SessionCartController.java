package io.github.idempotency.docs.snippets.ordered;

import java.util.List;

import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

// tag::ordered-update[]
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.annotation.Idempotent;
import io.github.idempotency.annotation.IdempotentSequence;
// end::ordered-update[]

/**
 * A session's cart, updated in the order of the numbers its updates carry.
 */
@RestController
class SessionCartController {

	// tag::ordered-update[]
	@Idempotent(mode = IdempotencyMode.ATOMIC,
			key = "'session_update:' + #id + ':' + #update.type() + ':' + #update.sequence()")
	@IdempotentSequence(scope = "#id + ':' + #update.type()", value = "#update.sequence()")
	@PatchMapping("/sessions/{id}/cart")
	Cart updateCart(@PathVariable String id, @RequestBody CartUpdate update) {
		return new Cart(id, update.items(), update.sequence());
	}
	// end::ordered-update[]

	record CartUpdate(String type, long sequence, List<String> items) {
	}

	record Cart(String session, List<String> items, long sequence) {
	}

}
