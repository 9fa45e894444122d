package dev.flowscale.operator.core;

import dev.flowscale.operator.api.StreamJob;

/** The job label of the runner's and the operator's metrics and the key of a job's loop. */
public final class JobLabel {
    private JobLabel() {}

    /** {@code namespace/name}. */
    public static String of(StreamJob job) {
        return job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    }
}
