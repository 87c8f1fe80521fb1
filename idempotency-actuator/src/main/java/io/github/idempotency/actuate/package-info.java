/**
 * Operations: metrics, the Actuator endpoint and the dashboard, and their auto-configurations.
 */
@NullMarked
package io.github.idempotency.actuate;

import org.jspecify.annotations.NullMarked;
