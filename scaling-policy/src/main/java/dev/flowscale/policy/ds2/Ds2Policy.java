package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Checks;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.ScalingPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * DS2 with production guards. In order: a rescale in progress, missing, stale or invalid metrics
 * and warm-up block the decision; DS2 sizes every operator from true rates (sources' target rates
 * include backlog catch-up); headroom, bounds and key-group alignment adjust the size; the
 * scale-down delay and the dead band hold back changes. Pure: time comes from the clock.
 *
 * <p>Catch-up plans for the rescale it causes: when the plain recommendation changes parallelism,
 * the backlog that the rescale's downtime will add is drained too. Hence the policy never returns
 * to a parallelism that cannot drain the backlog its own rescale creates, which would flap.
 */
public final class Ds2Policy implements ScalingPolicy {

    private final PolicyConfig config;
    private final Clock clock;

    public Ds2Policy(PolicyConfig config, Clock clock) {
        this.config = Checks.notNull(config, "Ds2Policy config");
        this.clock = Checks.notNull(clock, "Ds2Policy clock");
    }

    @Override
    public ScalingDecision decide(JobTopology topology, MetricsWindow window, ScalingHistory history) {
        Instant now = clock.instant();
        Optional<Problem> problem = preconditions(topology, window, history, now)
                .or(() -> unknownCapacity(topology, window));
        if (problem.isPresent()) {
            return ScalingDecision.blocked(now, topology.jobName(), problem.get().reason(), problem.get().message());
        }
        List<String> reasons = new ArrayList<>();
        reasons.add("DS2 over the window " + window.start() + " .. " + window.end());
        Optional<String> draining = CatchUpHold.draining(topology, window, config);
        List<OperatorDecision> ops = new ArrayList<>();
        for (OperatorDecision op : recommend(topology, window, history, reasons)) {
            OperatorDecision delayed = ScaleDownDelay.apply(op, history, now, config.scaleDownDelay());
            ops.add(draining.map(why -> CatchUpHold.hold(delayed, why)).orElse(delayed));
        }
        return outcome(now, topology.jobName(), reasons, ops);
    }

    private Optional<Problem> preconditions(JobTopology t, MetricsWindow w, ScalingHistory h, Instant now) {
        if (h.rescaleInProgress()) {
            return Optional.of(new Problem(BlockReason.RESCALE_IN_PROGRESS, "a rescale started at "
                    + h.lastRescale().orElseThrow().started() + " has not finished"));
        }
        return warmingUp(w, h).or(() -> MetricsValidator.check(t, w, now, config));
    }

    private Optional<Problem> warmingUp(MetricsWindow w, ScalingHistory h) {
        Optional<Instant> finished = h.lastRescale().flatMap(RescaleRecord::finished);
        if (finished.isEmpty()) {
            return Optional.empty();
        }
        Instant warm = finished.get().plus(config.warmUp());
        return w.start().isBefore(warm)
                ? Optional.of(new Problem(BlockReason.WARMING_UP, "window starts at " + w.start()
                        + ", before the warm-up after the rescale that finished at " + finished.get()
                        + " ends at " + warm))
                : Optional.empty();
    }

    private Optional<Problem> unknownCapacity(JobTopology t, MetricsWindow w) {
        for (Ds2Formula.Estimate e : estimates(t, w, Duration.ZERO).values()) {
            if (e.parallelism(config.targetUtilization()) == 0 && !t.isSource(e.operatorId())) {
                return Optional.of(new Problem(BlockReason.METRICS_MISSING, String.format(
                        "operator '%s' processed no records in the window but must process %.1f rec/s;"
                                + " its capacity is unknown", e.operatorId(), e.targetInputRate())));
            }
        }
        return Optional.empty();
    }

    private List<OperatorDecision> recommend(JobTopology t, MetricsWindow w, ScalingHistory h, List<String> reasons) {
        List<OperatorDecision> plain = recommend(t, w, Duration.ZERO);
        if (config.catchUpDuration().isZero() || plain.stream().noneMatch(OperatorDecision::changes)) {
            return plain;
        }
        Duration downtime = h.lastRescaleDuration().orElse(config.expectedRescaleDuration());
        reasons.add("catch-up plans for the backlog of this rescale's downtime of " + downtime.toSeconds() + " s");
        return recommend(t, w, downtime);
    }

    private List<OperatorDecision> recommend(JobTopology t, MetricsWindow w, Duration downtime) {
        Map<String, SourceTarget> sources = SourceTarget.of(t, w, config, downtime);
        List<OperatorDecision> ops = new ArrayList<>();
        estimates(t, w, downtime).forEach((id, e) ->
                ops.add(Sizing.recommend(t.operator(id), w.metrics(id).orElseThrow(), e, sources.get(id), config)));
        return ops;
    }

    private Map<String, Ds2Formula.Estimate> estimates(JobTopology t, MetricsWindow w, Duration downtime) {
        Map<String, Double> rates = new LinkedHashMap<>();
        SourceTarget.of(t, w, config, downtime).forEach((id, s) -> rates.put(id, s.total()));
        return Ds2Formula.estimate(t, w, rates);
    }

    private ScalingDecision outcome(Instant now, String job, List<String> reasons, List<OperatorDecision> ops) {
        if (ops.stream().noneMatch(OperatorDecision::changes)) {
            return ops.stream().anyMatch(ScaleDownDelay::delayed)
                    ? ScalingDecision.blocked(now, job, BlockReason.SCALE_DOWN_DELAYED, reasons, ops)
                    : ScalingDecision.of(now, job, reasons, ops);
        }
        if (config.deadBand() > 0 && ops.stream().allMatch(op -> DeadBand.within(op, config.deadBand()))) {
            List<OperatorDecision> held = ops.stream().map(op -> DeadBand.hold(op, config.deadBand())).toList();
            return ScalingDecision.withinDeadBand(now, job, reasons, held);
        }
        return ScalingDecision.of(now, job, reasons, ops);
    }
}
