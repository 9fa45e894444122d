package dev.flowscale.operator.runner;

import dev.flowscale.operator.api.SlotResources;
import java.util.Map;

/**
 * How many task slots a runner pod is sized for: its total parallelism plus the job's headroom
 * ({@code spec.resources.headroom}), and whether a pod sized for one parallelism covers another, so
 * the operator can rescale in place instead of replacing the pod.
 */
final class PodSizing {
    private PodSizing() {}

    /** Slots of a pod started at {@code parallelism}: ⌈total × (1 + headroom)⌉, at least 1. */
    static int slots(SlotResources resources, Map<String, Integer> parallelism) {
        int total = totalSlots(parallelism);
        return (int) Math.ceil(total * (1 + Math.max(0, resources.headroom)) - 1e-9);
    }

    /** Whether a pod started at {@code deployed} has the slots {@code target} needs. */
    static boolean covers(
            SlotResources resources, Map<String, Integer> deployed, Map<String, Integer> target) {
        return covers(slots(resources, deployed), target);
    }

    /** Whether a pod of {@code podSlots} slots has the slots {@code target} needs. */
    static boolean covers(int podSlots, Map<String, Integer> target) {
        return totalSlots(target) <= podSlots;
    }

    /**
     * Slots the runner needs: the total parallelism, at least 1 (unnamed operators are not
     * counted).
     */
    static int totalSlots(Map<String, Integer> parallelism) {
        return Math.max(1, parallelism.values().stream().mapToInt(Integer::intValue).sum());
    }
}
