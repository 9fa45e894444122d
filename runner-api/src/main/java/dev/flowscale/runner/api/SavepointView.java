package dev.flowscale.runner.api;

/**
 * The body of a successful savepoint or stop-with-savepoint: the snapshot's directory (absolute).
 */
public record SavepointView(String savepoint) {}
