/**
 * The contract test that every {@link io.github.idempotency.store.IdempotencyStore} must pass.
 */
@NullMarked
package io.github.idempotency.testsupport.store;

import org.jspecify.annotations.NullMarked;
