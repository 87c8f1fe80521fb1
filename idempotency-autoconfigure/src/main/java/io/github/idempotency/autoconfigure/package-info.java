/**
 * Spring Boot auto-configuration of the idempotency starter, and its configuration properties.
 */
@NullMarked
package io.github.idempotency.autoconfigure;

import org.jspecify.annotations.NullMarked;

