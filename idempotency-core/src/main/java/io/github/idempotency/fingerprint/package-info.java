/**
 * The default request fingerprint: SHA-256 over the request with its JSON body in canonical form.
 */
@NullMarked
package io.github.idempotency.fingerprint;

import org.jspecify.annotations.NullMarked;
