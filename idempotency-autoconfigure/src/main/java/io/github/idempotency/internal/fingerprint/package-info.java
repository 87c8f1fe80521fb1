/**
 * Request fingerprints over canonical JSON. Internal: not a supported API.
 */
@NullMarked
package io.github.idempotency.internal.fingerprint;

import org.jspecify.annotations.NullMarked;

