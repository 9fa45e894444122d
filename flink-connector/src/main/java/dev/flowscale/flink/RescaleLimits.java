package dev.flowscale.flink;

import java.util.Map;
import java.util.Optional;

/**
 * What a Flink job cannot be rescaled to: above a vertex's max parallelism (its key groups: Flink
 * refuses to restore keyed state there) or, for a source, above its splits (the extra readers would
 * idle). Checked before anything is touched.
 */
final class RescaleLimits {
    private RescaleLimits() {}

    static Optional<String> check(FlinkJobRef ref, FlinkJob job, Map<String, Integer> changes) {
        for (Map.Entry<String, Integer> change : changes.entrySet()) {
            FlinkVertex v = job.vertex(change.getKey());
            int p = change.getValue();
            if (p > v.maxParallelism()) {
                return Optional.of(
                        "vertex '"
                                + v.operatorId()
                                + "' cannot run at "
                                + p
                                + ": its max parallelism"
                                + " (key groups) is "
                                + v.maxParallelism()
                                + "; raise pipeline.max-parallelism for the job (it changes the key"
                                + " groups only from an empty state) or cap the autoscaler's max parallelism");
            }
            if (job.isSource(v) && p > v.parallelism()) {
                int splits = VertexMetrics.sourceNames(ref.rest(), job.id(), v).splits();
                if (splits > 0 && p > splits) {
                    return Optional.of(
                            "source '"
                                    + v.operatorId()
                                    + "' cannot use "
                                    + p
                                    + " readers: it has "
                                    + splits
                                    + " split(s) (partitions); add partitions or cap its max parallelism");
                }
            }
        }
        return Optional.empty();
    }
}
