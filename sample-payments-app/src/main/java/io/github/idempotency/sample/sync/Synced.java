package io.github.idempotency.sample.sync;

/**
 * The result of an accepted sync.
 *
 * @param <T> the view of the entity
 * @param entity the entity after the sync
 * @param created whether the sync created it
 */
public record Synced<T>(T entity, boolean created) {

}
