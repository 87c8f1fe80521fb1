/**
 * The Spring WebFlux adapter: the web filter, the handler advice and the response capture for
 * idempotent handlers, the store's threads, and its auto-configuration.
 */
@NullMarked
package io.github.idempotency.web.reactive;

import org.jspecify.annotations.NullMarked;
