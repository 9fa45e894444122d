package dev.flowscale.policy.sim;

import java.time.Duration;
import java.util.Map;

/**
 * The fewest rescales any policy can make on a scenario's trace while sustaining the offered rate
 * at every second and ending at the minimal configuration: a lower bound, since it lets a policy
 * rescale at any instant, knowing the future, with no downtime. One configuration covers a span of
 * seconds when it is at least each second's optimum ({@link Scenario#optimalParallelism(long)}) for
 * every operator. The first span runs at the scenario's initial configuration and the last at the
 * final second's optimum; anything between can be covered by one configuration (the largest optimum
 * in it). So the bound is 0, 1 or 2: 0 when the initial configuration covers the whole trace and is
 * its final optimum, 1 when the initial configuration covers the trace up to where the final
 * optimum covers the rest, 2 otherwise (an up-and-down step: a rise the start cannot carry, then a
 * fall to a smaller optimum).
 */
final class RescaleBound {

    private RescaleBound() {}

    /** The bound on the first {@code length} of {@code scenario}'s trace, in whole seconds. */
    static int leastRescales(Scenario scenario, Duration length) {
        long seconds = Math.max(1, length.toSeconds());
        Map<String, Integer> last = scenario.optimalParallelism(seconds - 1);
        long firstUncovered = seconds;
        for (long t = 0; t < seconds && firstUncovered == seconds; t++) {
            if (!covers(scenario.initial(), scenario.optimalParallelism(t))) {
                firstUncovered = t;
            }
        }
        if (firstUncovered == seconds) {
            return scenario.initial().equals(last) ? 0 : 1;
        }
        long lastSpanStart = seconds - 1;
        while (lastSpanStart > 0 && covers(last, scenario.optimalParallelism(lastSpanStart - 1))) {
            lastSpanStart--;
        }
        return firstUncovered >= lastSpanStart ? 1 : 2;
    }

    /** Whether {@code config} is at least {@code optimum} for every operator. */
    private static boolean covers(Map<String, Integer> config, Map<String, Integer> optimum) {
        return optimum.entrySet().stream()
                .allMatch(e -> config.getOrDefault(e.getKey(), 0) >= e.getValue());
    }
}
