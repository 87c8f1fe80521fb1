package io.github.idempotency.sample.sessions;

import java.util.List;

/**
 * The body of {@code PATCH /sessions/{id}/cart}.
 *
 * @param sequence the update's number among the session's cart updates: 1, 2, 3... in the order
 * the client made them
 * @param changes the lines to change
 */
public record CartUpdateRequest(Long sequence, List<CartChange> changes) {

}
