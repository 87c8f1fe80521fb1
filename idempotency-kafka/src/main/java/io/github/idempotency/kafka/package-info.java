/**
 * The Kafka adapter: the key and payload of a record for {@code @Idempotent} listeners, and the
 * container's retry and dead-letter handling of their outcomes, with its auto-configuration.
 */
@NullMarked
package io.github.idempotency.kafka;

import org.jspecify.annotations.NullMarked;
