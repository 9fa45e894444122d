package dev.flowscale.engine.graph;

/**
 * Whether an operator may run on its upstream operator's thread. The engine chains a forward edge
 * between operators of the same parallelism (records passed by a direct call) unless one of its two
 * ends says otherwise here.
 */
public enum Chaining {
    /** Chained to its input and to its outputs wherever the edges allow. */
    DEFAULT,
    /** Starts a new chain: never chained to its input, its outputs may chain to it. */
    NEW_CHAIN,
    /** Never chained: runs on threads of its own and hands every record over through a queue. */
    NONE
}
