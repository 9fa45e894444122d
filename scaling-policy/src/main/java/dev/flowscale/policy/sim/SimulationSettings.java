package dev.flowscale.policy.sim;

import java.time.Duration;

/**
 * How a simulation runs.
 *
 * @param step length of one model step
 * @param policyInterval time between two autoscaler decisions
 * @param windowLength length of the metrics window handed to the policy
 * @param rescaleDowntime how long a rescale keeps the job down
 * @param bufferSeconds queue capacity per operator, in seconds of its capacity
 * @param noise relative standard deviation of per-step capacity noise (0 = none)
 * @param seed seed of the noise
 */
public record SimulationSettings(
        Duration step,
        Duration policyInterval,
        Duration windowLength,
        Duration rescaleDowntime,
        double bufferSeconds,
        double noise,
        long seed) {

    /**
     * 1 s steps, a decision every 30 s over a 30 s window, 10 s rescales, 2 s buffers, no noise.
     */
    public static SimulationSettings defaults() {
        return new SimulationSettings(
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                Duration.ofSeconds(30),
                Duration.ofSeconds(10),
                2,
                0,
                42);
    }

    public SimulationSettings withRescaleDowntime(Duration d) {
        return new SimulationSettings(
                step, policyInterval, windowLength, d, bufferSeconds, noise, seed);
    }

    public SimulationSettings withNoise(double n, long s) {
        return new SimulationSettings(
                step, policyInterval, windowLength, rescaleDowntime, bufferSeconds, n, s);
    }

    public SimulationSettings withPolicyInterval(Duration interval) {
        return new SimulationSettings(
                step, interval, interval, rescaleDowntime, bufferSeconds, noise, seed);
    }
}
