package dev.flowscale.policy.sim;

import java.time.Instant;
import java.util.Map;

/**
 * What the instrumented engine would count in one simulated step, per operator and instance.
 *
 * @param end end of the step
 * @param counts per operator: per instance [records in, records out, useful seconds]
 * @param offered per source: records offered during the step
 * @param backlog per source: backlog at the end of the step
 */
record StepSample(
        Instant end,
        Map<String, double[][]> counts,
        Map<String, Double> offered,
        Map<String, Double> backlog) {}
