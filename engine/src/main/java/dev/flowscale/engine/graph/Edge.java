package dev.flowscale.engine.graph;

import dev.flowscale.engine.api.KeySelector;

/**
 * A connection from one operator to another. A {@link Partitioning#HASH} edge carries the key
 * selector that its downstream keyed operator also uses. An edge with an {@code outputTag} carries
 * the records its upstream operator emits to that side output instead of its main output. {@code
 * input} says which input of a two-input operator the edge feeds (0, or 1 for the second). {@code
 * forwardOnceAligned} marks a forward edge that a rescale turned into a rebalance because its two
 * operators' parallelisms came apart: it turns forward again (and may chain) once they match.
 */
public record Edge(
        String from,
        String to,
        Partitioning partitioning,
        KeySelector<Object, Object> keySelector,
        String outputTag,
        int input,
        boolean forwardOnceAligned) {

    /** An edge as declared: forward stays forward only while the parallelisms match. */
    public Edge(
            String from,
            String to,
            Partitioning partitioning,
            KeySelector<Object, Object> keySelector,
            String outputTag,
            int input) {
        this(from, to, partitioning, keySelector, outputTag, input, false);
    }

    /** An edge into a one-input operator (or the first input of a two-input one). */
    public Edge(
            String from,
            String to,
            Partitioning partitioning,
            KeySelector<Object, Object> keySelector,
            String outputTag) {
        this(from, to, partitioning, keySelector, outputTag, 0);
    }

    /** An edge of the upstream operator's main output. */
    public Edge(
            String from,
            String to,
            Partitioning partitioning,
            KeySelector<Object, Object> keySelector) {
        this(from, to, partitioning, keySelector, null);
    }

    public static Edge of(String from, String to, Partitioning partitioning) {
        return new Edge(from, to, partitioning, null);
    }

    @SuppressWarnings("unchecked")
    public static Edge hash(String from, String to, KeySelector<?, ?> keySelector) {
        return new Edge(from, to, Partitioning.HASH, (KeySelector<Object, Object>) keySelector);
    }

    /** The same edge between other operators (a renamed operator), keeping its side output. */
    public Edge between(String newFrom, String newTo) {
        return new Edge(
                newFrom, newTo, partitioning, keySelector, outputTag, input, forwardOnceAligned);
    }

    /** The same edge with another partitioning. */
    public Edge withPartitioning(Partitioning newPartitioning) {
        return new Edge(
                from, to, newPartitioning, keySelector, outputTag, input, forwardOnceAligned);
    }

    /**
     * The edge for operators now at parallelism {@code fromParallelism} and {@code toParallelism}:
     * a forward edge becomes a rebalance while they differ and forward again once they match.
     */
    public Edge forParallelism(int fromParallelism, int toParallelism) {
        boolean aligned = fromParallelism == toParallelism;
        if (partitioning == Partitioning.FORWARD && !aligned) {
            return new Edge(from, to, Partitioning.REBALANCE, keySelector, outputTag, input, true);
        }
        if (forwardOnceAligned && aligned) {
            return new Edge(from, to, Partitioning.FORWARD, keySelector, outputTag, input, false);
        }
        return this;
    }

    /** The same edge into input {@code index} of its downstream operator. */
    public Edge toInput(int index) {
        return new Edge(from, to, partitioning, keySelector, outputTag, index, forwardOnceAligned);
    }

    @Override
    public String toString() {
        String side = outputTag == null ? "" : "[" + outputTag + "]";
        return from + side + " -" + partitioning.name().toLowerCase() + "-> " + to;
    }
}
