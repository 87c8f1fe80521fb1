package io.github.idempotency.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Orders the calls of an {@link Idempotent @Idempotent} method by a sequence number per scope:
 * once a number has been processed for a scope, a call with a lower one is refused, never run,
 * with {@code 409} problem {@code urn:problem-type:idempotency:stale-sequence} that states the
 * highest processed number. The number is checked after the call's key is claimed, so that a call
 * whose key was processed already is an ordinary duplicate, replayed; and the same number again,
 * such as a retry after a transient failure, is accepted.
 *
 * <pre class="code">
 * &#64;Idempotent(key = "'session_update:' + #id + ':' + #update.type + ':' + #update.sequence")
 * &#64;IdempotentSequence(scope = "#id + ':' + #update.type", value = "#update.sequence")
 * &#64;PatchMapping("/sessions/{id}/cart")
 * Cart update(&#64;PathVariable String id, &#64;RequestBody CartUpdate update) { ... }
 * </pre>
 *
 * Scopes belong to the tenant of the call and are kept for the operation's TTL after their last
 * accepted number. The store must keep sequence numbers (the JDBC and Redis stores do); an
 * application that declares this annotation over a store that does not, does not start.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface IdempotentSequence {

	/**
	 * SpEL expression over the method arguments that names the scope whose numbers must increase,
	 * such as {@code #sessionId + ':' + #update.type}: at most 255 characters.
	 * @return the scope expression
	 */
	String scope();

	/**
	 * SpEL expression over the method arguments that yields the call's sequence number: a whole
	 * number, zero or more, or its decimal text.
	 * @return the sequence number expression
	 */
	String value();

}
