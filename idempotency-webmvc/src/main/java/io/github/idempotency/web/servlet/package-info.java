/**
 * The Spring MVC adapter: the filter, the interceptor and the response capture for idempotent handlers, and its auto-configuration.
 */
@NullMarked
package io.github.idempotency.web.servlet;

import org.jspecify.annotations.NullMarked;
