package dev.flowscale.autoscaler.testing;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds policy decisions for tests: operator id -> {current, new}. */
public final class Decisions {
    private Decisions() {}

    public static ScalingDecision scale(String job, Map<String, int[]> currentAndNew) {
        List<OperatorDecision> ops = new ArrayList<>();
        currentAndNew.forEach((op, p) -> ops.add(operator(op, p[0], p[1])));
        return ScalingDecision.of(Instant.parse("2026-01-01T00:00:00Z"), job, List.of("test"), ops);
    }

    public static ScalingDecision scale(String job, String op, int current, int next) {
        return scale(job, Map.of(op, new int[] {current, next}));
    }

    public static OperatorDecision operator(String op, int current, int next) {
        return new OperatorDecision(op, current, next, next, 100, 50, 0.5, 0, List.of("test"));
    }
}
