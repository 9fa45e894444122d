package dev.flowscale.engine.graph;

/** How the records on an edge are spread over the downstream operator's instances. */
public enum Partitioning {
    /** Instance i sends to instance i; both sides must have the same parallelism. */
    FORWARD,
    /** Round robin over all downstream instances. */
    REBALANCE,
    /** By key group of the record's key, so all records of a key meet on one instance. */
    HASH,
    /** Every record to every downstream instance. */
    BROADCAST
}
