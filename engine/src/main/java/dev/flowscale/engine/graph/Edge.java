package dev.flowscale.engine.graph;

import dev.flowscale.engine.api.KeySelector;

/**
 * A connection from one operator to another. A {@link Partitioning#HASH} edge carries the key
 * selector that its downstream keyed operator also uses.
 */
public record Edge(
        String from,
        String to,
        Partitioning partitioning,
        KeySelector<Object, Object> keySelector) {

    public static Edge of(String from, String to, Partitioning partitioning) {
        return new Edge(from, to, partitioning, null);
    }

    @SuppressWarnings("unchecked")
    public static Edge hash(String from, String to, KeySelector<?, ?> keySelector) {
        return new Edge(from, to, Partitioning.HASH, (KeySelector<Object, Object>) keySelector);
    }

    @Override
    public String toString() {
        return from + " -" + partitioning.name().toLowerCase() + "-> " + to;
    }
}
