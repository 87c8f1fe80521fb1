/**
 * The scheduled purge of expired and stuck records. Internal: not a supported API.
 */
@NullMarked
package io.github.idempotency.internal.purge;

import org.jspecify.annotations.NullMarked;

