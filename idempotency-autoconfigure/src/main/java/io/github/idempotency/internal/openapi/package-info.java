/**
 * springdoc-openapi documentation of idempotent operations. Internal: not a supported API.
 */
@NullMarked
package io.github.idempotency.internal.openapi;

import org.jspecify.annotations.NullMarked;

