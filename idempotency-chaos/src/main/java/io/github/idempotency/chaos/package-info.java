/**
 * The fault-injection soak of {@code bench/chaos.sh}: retrying clients that record every request
 * and answer, a nemesis that injects faults on a seeded schedule, and a checker that proves from
 * that history and the database that every payment happened exactly once.
 */
@NullMarked
package io.github.idempotency.chaos;

import org.jspecify.annotations.NullMarked;
