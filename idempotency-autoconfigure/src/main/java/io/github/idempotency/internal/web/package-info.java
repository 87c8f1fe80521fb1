/**
 * The Spring MVC entry point: response capture, the HTTP contract and its problems. Internal: not a
 * supported API.
 */
@NullMarked
package io.github.idempotency.internal.web;

import org.jspecify.annotations.NullMarked;

