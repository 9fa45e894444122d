package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.model.HotKeyAnalysis;
import java.util.Locale;
import java.util.Optional;

/**
 * The reasons a decision gives for an operator whose input has a hot spot: what showed it, whether
 * its hottest instance is saturated while the others idle ({@link HotKeyAnalysis#assess}), and,
 * when no parallelism carries what the operator must, that more instances will not help, naming the
 * hot key groups and where the operator was capped instead of running away to its bound.
 */
final class HotKeys {

    private HotKeys() {}

    static String explain(
            OperatorMetrics m,
            OperatorSpec op,
            HotKeyAnalysis.HotSpot hot,
            Ds2Formula.Estimate base,
            PolicyConfig c) {
        String sized =
                String.format(
                        Locale.ROOT,
                        "key skew %.2f (%s): sized so the busiest instance keeps up",
                        hot.share(),
                        hot.evidence());
        return HotKeyAnalysis.assess(
                        m, op.keyGroups(), base.targetInputRate(), c.targetUtilization())
                .map(a -> sized + "; " + a.reason())
                .orElse(sized);
    }

    static String noMoreHelp(
            String id,
            double required,
            int upper,
            int capped,
            double carried,
            Optional<HotKeyAnalysis.HotSpot> hot) {
        String cause =
                hot.map(
                                h ->
                                        String.format(
                                                Locale.ROOT,
                                                "hot key groups %s hold %.0f %% of the input"
                                                        + " and one instance takes each key group",
                                                h.keyGroups(),
                                                100 * h.share()))
                        .orElse("its capacity curve flattens");
        return String.format(
                Locale.ROOT,
                "more instances will not help '%s': %s, so no parallelism up to %d"
                        + " carries %.1f rec/s; capped at %d, which carries %.1f rec/s (within %.0f %% of the most any"
                        + " parallelism carries)",
                id,
                cause,
                upper,
                required,
                capped,
                carried,
                100 * Capacities.NEARLY_BEST);
    }
}
