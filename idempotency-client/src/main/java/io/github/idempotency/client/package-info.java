/**
 * A retrying {@code RestClient} interceptor for APIs that honour the {@code Idempotency-Key}
 * header: one key per logical call, sent unchanged on every retry.
 */
@NullMarked
package io.github.idempotency.client;

import org.jspecify.annotations.NullMarked;
