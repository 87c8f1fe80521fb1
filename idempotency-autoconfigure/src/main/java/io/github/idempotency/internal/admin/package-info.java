/**
 * Operator access to stored records, for Actuator. Internal: not a supported API.
 */
@NullMarked
package io.github.idempotency.internal.admin;

import org.jspecify.annotations.NullMarked;

