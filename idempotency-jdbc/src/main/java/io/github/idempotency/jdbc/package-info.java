/**
 * The JDBC store (PostgreSQL, H2): its statements, schema, purge and archive, and its auto-configuration.
 */
@NullMarked
package io.github.idempotency.jdbc;

import org.jspecify.annotations.NullMarked;
