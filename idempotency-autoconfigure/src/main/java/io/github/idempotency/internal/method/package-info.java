/**
 * The advice around {@code @Idempotent} methods and the bean-method entry point. Internal: not a
 * supported API.
 */
@NullMarked
package io.github.idempotency.internal.method;

import org.jspecify.annotations.NullMarked;

