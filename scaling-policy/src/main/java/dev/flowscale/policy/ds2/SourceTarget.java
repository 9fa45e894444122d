package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.SourceMetrics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A source's target rate: its base rate (user-given, else the offered rate) plus the catch-up
 * rate that drains its backlog within the catch-up duration.
 *
 * @param backlog records to drain: the current backlog plus, when a rescale is planned, what the
 *                source will owe after the rescale's downtime
 */
record SourceTarget(double base, double backlog, double catchUp, boolean userGiven) {

    double total() {
        return base + catchUp;
    }

    double catchUpShare() {
        return total() > 0 ? catchUp / total() : 0;
    }

    /** Targets of every source; {@code downtime} is the expected rescale downtime to plan for. */
    static Map<String, SourceTarget> of(JobTopology topology, MetricsWindow window, PolicyConfig config,
            Duration downtime) {
        Map<String, SourceTarget> targets = new LinkedHashMap<>();
        for (String id : topology.sources()) {
            targets.put(id, of(id, window.metrics(id).orElseThrow(), config, downtime));
        }
        return targets;
    }

    private static SourceTarget of(String id, OperatorMetrics m, PolicyConfig config, Duration downtime) {
        Double given = config.sourceTargetRates().get(id);
        double base = given != null ? given : m.source().map(SourceMetrics::offeredRate).orElse(0.0);
        double owed = m.source().map(SourceMetrics::backlogRecords).orElse(0.0);
        double seconds = config.catchUpDuration().toNanos() / 1e9;
        if (seconds == 0) {
            return new SourceTarget(base, owed, 0, given != null);
        }
        double backlog = owed + base * downtime.toNanos() / 1e9;
        return new SourceTarget(base, backlog, backlog / seconds, given != null);
    }

    String explain(PolicyConfig config) {
        String origin = userGiven ? "configured" : "offered";
        if (config.catchUpDuration().isZero()) {
            return String.format("source target %.1f rec/s (%s; catch-up disabled, backlog %.0f)", base, origin, backlog);
        }
        return String.format("source target %.1f rec/s = %s %.1f + backlog %.0f / %d s (catch-up share %.1f %%)",
                total(), origin, base, backlog, config.catchUpDuration().toSeconds(), 100 * catchUpShare());
    }
}
