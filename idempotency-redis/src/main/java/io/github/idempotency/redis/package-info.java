/**
 * The Redis store: one Lua script per operation, and its auto-configuration.
 */
@NullMarked
package io.github.idempotency.redis;

import org.jspecify.annotations.NullMarked;
