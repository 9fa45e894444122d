package dev.flowscale.runner.api;

/**
 * The optional body of {@code POST /api/v1/savepoint} and {@code POST /api/v1/stop-with-savepoint}.
 *
 * @param timeoutSeconds how long the snapshot may take, {@value #MIN_TIMEOUT}..{@value
 *     #MAX_TIMEOUT} seconds; null: the runner's default (60 s)
 */
public record ControlRequest(Integer timeoutSeconds) {
    public static final int MIN_TIMEOUT = 1;
    public static final int MAX_TIMEOUT = 3600;
}
