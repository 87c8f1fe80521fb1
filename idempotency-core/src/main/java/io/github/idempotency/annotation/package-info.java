/**
 * The {@code @Idempotent} annotation and its modes.
 */
@NullMarked
package io.github.idempotency.annotation;

import org.jspecify.annotations.NullMarked;
