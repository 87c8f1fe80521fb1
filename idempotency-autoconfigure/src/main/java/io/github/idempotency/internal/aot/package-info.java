/**
 * Ahead-of-time processing: the runtime hints a native image of an application with the starter
 * needs.
 */
@NullMarked
package io.github.idempotency.internal.aot;

import org.jspecify.annotations.NullMarked;
