/**
 * The Redis store of idempotency records, standalone or Redis Cluster, on Spring Data Redis and
 * Lettuce: one hash per record, one Lua script per operation. Internal: not a supported API.
 */
@NullMarked
package io.github.idempotency.internal.redis;

import org.jspecify.annotations.NullMarked;
