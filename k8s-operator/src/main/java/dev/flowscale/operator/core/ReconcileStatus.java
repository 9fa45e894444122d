package dev.flowscale.operator.core;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.api.StreamJobStatus;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The reconciler's status writes, through the SDK's {@link PrimaryUpdateAndCacheUtils}: each is a
 * status update against the resourceVersion the reconciler read (a real API server answers 409 when
 * another writer, such as the autoscaler recording a decision, wrote in between), applied again to
 * the newer version from the informer cache on a conflict, and cached so that the next pass sees it
 * even before the watch delivers it. A change is a function of the status, never a stale copy, so a
 * retried write keeps what the other writer wrote. The SDK's own {@code patchStatus} is a merge
 * patch without a resourceVersion on this non-SSA setup and would overwrite such writes.
 */
public final class ReconcileStatus {
    private final Context<StreamJob> context;
    private StreamJob job;

    public ReconcileStatus(StreamJob job, Context<StreamJob> context) {
        this.job = job;
        this.context = context;
    }

    /** The job as this pass last read or wrote it. */
    public StreamJob job() {
        return job;
    }

    public StreamJobStatus status() {
        return statusOf(job);
    }

    /** Applies {@code change} and writes the status when it changed anything. */
    public void write(Consumer<StreamJobStatus> change) {
        String before = Serialization.asJson(status());
        StreamJob copy = Serialization.clone(job);
        change.accept(statusOf(copy));
        if (Objects.equals(before, Serialization.asJson(statusOf(copy)))) {
            return;
        }
        StreamJob written =
                PrimaryUpdateAndCacheUtils.updateStatusAndCacheResource(
                        job,
                        context,
                        fresh -> {
                            change.accept(statusOf(fresh));
                            return fresh;
                        });
        written.setSpec(job.getSpec()); // keep the resolved defaults
        job = written;
    }

    public static StreamJobStatus statusOf(StreamJob job) {
        if (job.getStatus() == null) {
            job.setStatus(new StreamJobStatus());
        }
        return job.getStatus();
    }
}
