package dev.flowscale.policy.api;

/**
 * A data stream from one operator to another; every record emitted by {@code from} reaches {@code
 * to}.
 */
public record Edge(String from, String to) {

    public Edge {
        Checks.notBlank(from, "edge source operator id");
        Checks.notBlank(to, "edge target operator id of edge from '" + from + "'");
    }
}
