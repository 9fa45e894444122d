package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import java.util.Arrays;
import java.util.Collection;
import java.util.Objects;

/**
 * The load a decision saw: the sum of its sources' base rates (target minus catch-up). A load
 * change is a relative change of more than {@link PolicyConfig#loadChange()}.
 */
final class Load {

    private Load() {}

    /** The sources' base rate a decision planned for; NaN when it evaluated no source. */
    static double of(ScalingDecision d, Collection<String> sources) {
        double[] rates =
                sources.stream()
                        .map(d.operators()::get)
                        .filter(Objects::nonNull)
                        .mapToDouble(op -> op.targetInputRate() * (1 - op.catchUpShare()))
                        .toArray();
        return rates.length < sources.size() ? Double.NaN : Arrays.stream(rates).sum();
    }

    static double threshold(PolicyConfig c) {
        return c.loadChange();
    }

    static boolean same(double then, double now, PolicyConfig c) {
        return !Double.isNaN(then) && Math.abs(now - then) <= threshold(c) * Math.max(then, now);
    }

    static boolean fell(double then, double now, PolicyConfig c) {
        return !Double.isNaN(then) && now < then * (1 - threshold(c));
    }

    /**
     * A rescale that only lowers operators, or one the running configuration did not need that
     * lowers some (a trim may raise a bottleneck that lacks the spare for the trim's downtime).
     */
    static boolean isTrim(ScalingDecision d) {
        return d.isScale()
                && (d.operators().values().stream()
                                .allMatch(op -> op.newParallelism() <= op.currentParallelism())
                        || d.operators().values().stream().anyMatch(Load::lowers)
                                && d.reasons().stream()
                                        .noneMatch(r -> r.startsWith(RunningCheck.NEEDED)));
    }

    static boolean lowers(OperatorDecision op) {
        return op.newParallelism() < op.currentParallelism();
    }
}
