package dev.flowscale.runner.api;

import java.util.Map;

/** The body of {@code POST /api/v1/rescale}: the new parallelism of each operator to change. */
public record RescaleRequest(Map<String, Integer> parallelism) {}
