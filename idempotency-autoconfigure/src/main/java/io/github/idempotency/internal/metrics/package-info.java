/**
 * Micrometer meters of idempotent operations. Internal: not a supported API.
 */
@NullMarked
package io.github.idempotency.internal.metrics;

import org.jspecify.annotations.NullMarked;

