package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.PolicyConfigBuilder;
import dev.flowscale.policy.sim.TableDefaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One seeded random input to a single decision: a DAG of 2 to 60 operators with random parallelism,
 * key groups, capacities (10 to 100,000 rec/s per instance), selectivities, busy shares,
 * per-instance skew, source rates and backlogs, and one of six configurations (the table's
 * defaults, catch-up with skew correction, key-group alignment with a dead band, tight bounds,
 * learning with predictive mode, a configured source rate; half of them decide without waiting for
 * a confirmation). Same seed, same input.
 */
record RandomDecisionInputs(JobTopology topology, MetricsWindow window, PolicyConfig config) {

    static RandomDecisionInputs of(long seed) {
        Random random = new Random(seed);
        int n = 2 + random.nextInt(59);
        int sources = 1 + random.nextInt(Math.max(1, n / 8));
        List<OperatorSpec> specs = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        List<OperatorMetrics> metrics = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String id = "op" + i;
            int p = 1 + random.nextInt(8);
            specs.add(new OperatorSpec(id, p, List.of(16, 32, 128).get(random.nextInt(3))));
            OperatorMetrics m = metrics(random, id, p);
            metrics.add(
                    i < sources
                            ? m.withSource(
                                    m.trueProcessingRate() * (0.2 + 2 * random.nextDouble()),
                                    random.nextBoolean()
                                            ? 0
                                            : m.trueProcessingRate() * 200 * random.nextDouble())
                            : m);
            if (i >= sources) {
                random.ints(1 + random.nextInt(3), 0, i)
                        .distinct()
                        .forEach(j -> edges.add(new Edge("op" + j, id)));
            }
        }
        return new RandomDecisionInputs(
                new JobTopology("random-" + seed, specs, edges),
                MetricsWindow.of(Fixtures.START, Fixtures.END, metrics),
                config(random, (int) (seed % 6)));
    }

    private static OperatorMetrics metrics(Random random, String id, int p) {
        double capacity = Math.exp(Math.log(10) + random.nextDouble() * Math.log(10_000));
        double in = random.nextDouble() < 0.004 ? 0 : capacity * p;
        double selectivity = Math.exp(Math.log(0.1) + random.nextDouble() * Math.log(100));
        double busy = 0.2 + 0.8 * random.nextDouble();
        OperatorMetrics m =
                OperatorMetrics.of(id, p, in, in * selectivity, in * busy, in * busy * selectivity);
        return p > 1 && random.nextDouble() < 0.3 ? m.withInstances(skewed(random, m, p)) : m;
    }

    /** Per-instance rates where the first instance takes a hot key's extra share. */
    private static List<InstanceWindowRates> skewed(Random random, OperatorMetrics m, int p) {
        double skew = 0.05 + 0.4 * random.nextDouble();
        List<InstanceWindowRates> list = new ArrayList<>();
        for (int k = 0; k < p; k++) {
            double share = (k == 0 ? skew : 0) + (1 - skew) / p;
            list.add(
                    new InstanceWindowRates(
                            k,
                            m.trueProcessingRate() / p,
                            m.trueOutputRate() / p,
                            m.observedProcessingRate() * share,
                            m.observedOutputRate() * share));
        }
        return list;
    }

    private static PolicyConfig config(Random random, int variant) {
        PolicyConfigBuilder b = TableDefaults.policy().toBuilder();
        return switch (variant) {
            case 1 ->
                    b.catchUpDuration(Duration.ofMinutes(5))
                            .skewCorrection(true)
                            .confirmNeed(false)
                            .build();
            case 2 -> b.alignToKeyGroups(0.5).deadBand(0.2).build();
            case 3 -> b.jobBounds(2, 2 + random.nextInt(14)).confirmNeed(false).build();
            case 4 -> b.learnScalability(true).predictive(true).build();
            case 5 ->
                    b.sourceTargetRate("op0", 1 + random.nextInt(100_000))
                            .catchUpDuration(Duration.ZERO)
                            .confirmNeed(false)
                            .build();
            default -> b.build();
        };
    }
}
