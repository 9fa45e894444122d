package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * What a rescale is expected to cost, measured rather than configured: a high percentile (nearest
 * rank) over the job's finished, successful rescales on the path its latest rescale took (in place
 * or by restart). Two figures: the downtime, until the new configuration runs, and the input the
 * rescale costs, which is what the backlog grows by. The input cost is the downtime where the job
 * resumes where it stopped; where a rescale restarts the job from a checkpoint (Flink's adaptive
 * scheduler), the realizer measures it from that checkpoint's trigger until the job ran again, so
 * it includes the input re-read. A job with no such rescale yet plans with the configured prior for
 * both.
 *
 * @param downtime the time from a decision until the job runs its new configuration (a realizer may
 *     wait for a checkpoint before the job goes down)
 * @param input the input the rescale costs, as time at the sources' rate: what drain sizing and the
 *     trim's tests plan with
 * @param explain where the figures come from, for the decision's reasons
 */
record RescaleCost(Duration downtime, Duration input, String explain) {

    /** What a decision's reasons say when it planned the configured prior. */
    private static final String PRIOR = "(configured prior; no rescale measured yet)";

    static RescaleCost of(ScalingHistory history, PolicyConfig config) {
        List<RescaleRecord> done =
                history.rescales().stream()
                        .filter(r -> r.finished().isPresent() && !r.failed())
                        .toList();
        if (done.isEmpty()) {
            Duration prior = config.expectedRescaleDuration();
            return new RescaleCost(
                    prior,
                    prior,
                    String.format("expected rescale downtime %.1f s " + PRIOR, seconds(prior)));
        }
        String path = done.get(done.size() - 1).path();
        List<RescaleRecord> onPath = done.stream().filter(r -> r.path().equals(path)).toList();
        Duration downtime = percentile(onPath, r -> r.duration().orElseThrow(), config);
        Duration input = percentile(onPath, RescaleCost::inputOf, config);
        long rewound = onPath.stream().filter(r -> r.inputCost().isPresent()).count();
        String measured =
                String.format(
                        "p%.0f of %d measured %s rescales",
                        100 * config.downtimePercentile(), onPath.size(), path);
        return new RescaleCost(
                downtime,
                input,
                rewound == 0
                        ? String.format(
                                "expected rescale downtime %.1f s (%s)",
                                seconds(downtime), measured)
                        : String.format(
                                "expected rescale cost %.1f s of input (%s; %d of them restarted from a"
                                        + " checkpoint and re-read the input since it; %.1f s from the"
                                        + " decision until the job ran again)",
                                seconds(input), measured, rewound, seconds(downtime)));
    }

    /**
     * The input a finished rescale cost: what its realizer measured (which includes the downtime,
     * and leaves out a wait before the job stopped, when it still ran), else its downtime.
     */
    private static Duration inputOf(RescaleRecord r) {
        return r.inputCost().orElseGet(() -> r.duration().orElseThrow());
    }

    private static Duration percentile(
            List<RescaleRecord> records, Function<RescaleRecord, Duration> of, PolicyConfig c) {
        List<Duration> sorted = records.stream().map(of).sorted().toList();
        int rank = (int) Math.ceil(c.downtimePercentile() * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    /** Whether this cost is the configured prior: no rescale of the job has been measured. */
    boolean prior() {
        return explain.endsWith(PRIOR);
    }

    /** Whether {@code d} planned the configured prior, as its reasons say. */
    static boolean plannedOnPrior(ScalingDecision d) {
        return d.reasons().stream().anyMatch(r -> r.endsWith(PRIOR));
    }

    /** The input a rescale costs, in seconds at the sources' rate. */
    double seconds() {
        return seconds(input);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
