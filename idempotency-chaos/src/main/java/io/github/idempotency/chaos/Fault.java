package io.github.idempotency.chaos;

/**
 * One fault the nemesis injected, as recorded in the history.
 *
 * @param kind the kind of fault
 * @param target the instance it hit, from 1, or 0 for a server (PostgreSQL or Redis)
 * @param start when it began, epoch milliseconds
 * @param end when it was healed (for a kill: when the restarted instance was healthy again)
 * @param detail the fault's parameters, such as the delay or the loss probability
 */
record Fault(FaultKind kind, int target, long start, long end, String detail) {

}
