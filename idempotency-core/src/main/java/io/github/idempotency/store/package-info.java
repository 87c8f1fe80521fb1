/**
 * The store SPI: what a store of idempotency records must do, held to the published contract test
 * in {@code idempotency-test-support}.
 */
@NullMarked
package io.github.idempotency.store;

import org.jspecify.annotations.NullMarked;
