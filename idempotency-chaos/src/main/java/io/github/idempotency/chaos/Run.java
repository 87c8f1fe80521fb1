package io.github.idempotency.chaos;

/**
 * The frame of one soak, as recorded in the history.
 *
 * @param mode the mode under test, such as {@code leased}
 * @param seed the seed of the nemesis's schedule
 * @param workers the number of client workers
 * @param start when the workers started, epoch milliseconds
 * @param faultsFrom when the warm-up was over and the nemesis started
 * @param runEnd when the nemesis stopped and the workers stopped starting new payments
 * @param end when the drain and the final replays were over
 */
record Run(String mode, long seed, int workers, long start, long faultsFrom, long runEnd, long end) {

}
