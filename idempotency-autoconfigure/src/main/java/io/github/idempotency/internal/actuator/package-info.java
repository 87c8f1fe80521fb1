/**
 * The Actuator endpoint and health contribution. Internal: not a supported API.
 */
@NullMarked
package io.github.idempotency.internal.actuator;

import org.jspecify.annotations.NullMarked;

