package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.util.List;

/**
 * The downtime a rescale is expected to cost, measured rather than configured: a high percentile
 * (nearest rank) of the downtimes the job's finished, successful rescales took on the path its
 * latest rescale took (in place or by restart). A job with no such rescale yet plans with the
 * configured prior.
 *
 * @param downtime the downtime to plan for
 * @param explain where the figure comes from, for the decision's reasons
 */
record RescaleCost(Duration downtime, String explain) {

    static RescaleCost of(ScalingHistory history, PolicyConfig config) {
        List<RescaleRecord> done =
                history.rescales().stream()
                        .filter(r -> r.finished().isPresent() && !r.failed())
                        .toList();
        if (done.isEmpty()) {
            return new RescaleCost(
                    config.expectedRescaleDuration(),
                    String.format(
                            "expected rescale downtime %.1f s (configured prior; no rescale measured yet)",
                            seconds(config.expectedRescaleDuration())));
        }
        String path = done.get(done.size() - 1).path();
        List<Duration> sorted =
                done.stream()
                        .filter(r -> r.path().equals(path))
                        .map(r -> r.duration().orElseThrow())
                        .sorted()
                        .toList();
        int rank = (int) Math.ceil(config.downtimePercentile() * sorted.size());
        Duration d = sorted.get(Math.max(0, rank - 1));
        return new RescaleCost(
                d,
                String.format(
                        "expected rescale downtime %.1f s (p%.0f of %d measured %s rescales)",
                        seconds(d), 100 * config.downtimePercentile(), sorted.size(), path));
    }

    double seconds() {
        return seconds(downtime);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
