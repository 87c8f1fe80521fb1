/**
 * The invocation flow every entry point shares: claim, run, complete or release, under leases and
 * transactions. Internal: not a supported API.
 */
@NullMarked
package io.github.idempotency.internal.engine;

import org.jspecify.annotations.NullMarked;

