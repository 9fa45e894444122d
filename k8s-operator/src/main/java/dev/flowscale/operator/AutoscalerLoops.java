package dev.flowscale.operator;

import dev.flowscale.operator.api.StreamJob;

/** Keeps each StreamJob's autoscaler loop in step with its spec and phase; {@link JobAutoscalers} is the real one. */
public interface AutoscalerLoops {

    /** Loops that run no autoscaler (for tests of the reconciler alone). */
    AutoscalerLoops NONE = new AutoscalerLoops() {
        @Override
        public void reconcile(StreamJob job) {
        }

        @Override
        public boolean rescaling(StreamJob job) {
            return false;
        }
    };

    /** Starts, restarts (settings changed) or stops the job's loop; called after every reconcile. */
    void reconcile(StreamJob job);

    /** Whether this operator is rescaling the job now (false after a restart in mid-rescale). */
    boolean rescaling(StreamJob job);
}
