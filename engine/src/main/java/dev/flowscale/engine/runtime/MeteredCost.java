package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.SyntheticCost;

/**
 * An instance's synthetic cost: its meter, told the thread's wait for a core from the schedstat
 * file opened on the task's thread at the first record and closed with the task.
 */
final class MeteredCost implements Runnable, AutoCloseable {
    private final SyntheticCost.CostMeter meter;

    /** Opened on the task's thread at its first record. */
    private OwnRunDelay runDelay;

    MeteredCost(SyntheticCost cost, boolean sharedThread) {
        this.meter = cost.meter(sharedThread, this::runDelayNanos);
    }

    private long runDelayNanos() {
        if (runDelay == null) {
            runDelay = OwnRunDelay.ofCurrentThread();
        }
        return runDelay.nanos();
    }

    /** The instance waited for input or for room downstream. */
    void idle() {
        meter.idle();
    }

    /** Charges one record. */
    @Override
    public void run() {
        meter.charge();
    }

    @Override
    public void close() {
        if (runDelay != null) {
            runDelay.close();
        }
    }
}
