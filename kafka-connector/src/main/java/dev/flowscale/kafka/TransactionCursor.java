package dev.flowscale.kafka;

/**
 * What a snapshot records of one sink instance's transactional ids: every transaction it opened
 * before the snapshot's barrier has a number below {@code nextSequence}. On restore, transactions
 * of that instance numbered {@code nextSequence} or above are leftovers of the run that failed:
 * never part of a complete snapshot, so they are aborted.
 *
 * @param instance the instance (its transactional id namespace)
 * @param nextSequence the number of the instance's next transaction
 */
public record TransactionCursor(int instance, long nextSequence) {}
