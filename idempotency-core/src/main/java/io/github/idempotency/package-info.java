/**
 * The public API of the idempotency starter: the context business code sees, the exceptions it may
 * catch, and the extension points an application may replace.
 */
@NullMarked
package io.github.idempotency;

import org.jspecify.annotations.NullMarked;
