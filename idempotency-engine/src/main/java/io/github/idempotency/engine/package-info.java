/**
 * The engine: one idempotent call's life from claim to finish, its settlement, the bean-method adapter, and the core auto-configuration.
 */
@NullMarked
package io.github.idempotency.engine;

import org.jspecify.annotations.NullMarked;
