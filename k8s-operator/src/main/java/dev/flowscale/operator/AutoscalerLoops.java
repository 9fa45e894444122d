package dev.flowscale.operator;

import dev.flowscale.operator.api.StreamJob;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Keeps each StreamJob's autoscaler loop in step with its spec and phase; {@link JobAutoscalers} is
 * the real one.
 */
public interface AutoscalerLoops {

    /** Loops that run no autoscaler (for tests of the reconciler alone). */
    AutoscalerLoops NONE =
            new AutoscalerLoops() {
                @Override
                public void reconcile(StreamJob job, JobHandle handle) {}

                @Override
                public void rescaled(StreamJob job, Duration downtime, boolean succeeded) {}
            };

    /**
     * What a loop may do with its job besides recording decisions in status: ask for a reconcile
     * (after it recorded one), and learn from the informer cache whether the job still exists.
     */
    record JobHandle(Runnable reconcile, BooleanSupplier exists) {}

    /**
     * Starts, restarts (settings changed) or stops the job's loop; called after every reconcile.
     */
    void reconcile(StreamJob job, JobHandle handle);

    /** The reconciler finished a rescale of the job (whoever asked for it). */
    void rescaled(StreamJob job, Duration downtime, boolean succeeded);
}
