package dev.flowscale.engine.graph;

/** What an operator does; decides which function type it holds. */
public enum OperatorKind {
    SOURCE,
    MAP,
    FLAT_MAP,
    FILTER,
    PROCESS,
    KEYED_PROCESS,
    SINK;

    public boolean isSource() {
        return this == SOURCE;
    }
}
