package dev.flowscale.engine.graph;

import dev.flowscale.engine.api.KeySelector;

/**
 * A connection from one operator to another. A {@link Partitioning#HASH} edge carries the key
 * selector that its downstream keyed operator also uses. An edge with an {@code outputTag} carries
 * the records its upstream operator emits to that side output instead of its main output. {@code
 * input} says which input of a two-input operator the edge feeds (0, or 1 for the second).
 */
public record Edge(
        String from,
        String to,
        Partitioning partitioning,
        KeySelector<Object, Object> keySelector,
        String outputTag,
        int input) {

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
        return new Edge(newFrom, newTo, partitioning, keySelector, outputTag, input);
    }

    /** The same edge with another partitioning. */
    public Edge withPartitioning(Partitioning newPartitioning) {
        return new Edge(from, to, newPartitioning, keySelector, outputTag, input);
    }

    /** The same edge into input {@code index} of its downstream operator. */
    public Edge toInput(int index) {
        return new Edge(from, to, partitioning, keySelector, outputTag, index);
    }

    @Override
    public String toString() {
        String side = outputTag == null ? "" : "[" + outputTag + "]";
        return from + side + " -" + partitioning.name().toLowerCase() + "-> " + to;
    }
}
