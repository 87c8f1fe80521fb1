/**
 * Support for testing idempotency stores and applications against real servers.
 */
@NullMarked
package io.github.idempotency.testsupport;

import org.jspecify.annotations.NullMarked;
