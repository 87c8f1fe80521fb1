/**
 * The JDBC store: its statements per database, schema, purge batches and JPA mapping. Internal: not
 * a supported API.
 */
@NullMarked
package io.github.idempotency.internal.jdbc;

import org.jspecify.annotations.NullMarked;

