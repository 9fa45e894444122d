package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.engine.metrics.InstanceCounterRecorder.Phase;

/**
 * The task thread's view of its own phase. It reads the clock only when the phase changes, so a
 * task that always finds input and room for output pays nothing per batch for timing.
 */
final class PhaseClock {
    private final InstanceCounterRecorder metrics;
    private final boolean instrumented;
    private Phase current = Phase.NOT_STARTED;
    private Runnable onWait = () -> {};

    /** Called whenever the task starts waiting (for input or for room downstream). */
    void onWait(Runnable callback) {
        this.onWait = callback;
    }

    PhaseClock(InstanceCounterRecorder metrics, boolean instrumented) {
        this.metrics = metrics;
        this.instrumented = instrumented;
    }

    void start() {
        current = Phase.USEFUL;
        metrics.start(System.nanoTime());
    }

    boolean instrumented() {
        return instrumented;
    }

    Phase current() {
        return current;
    }

    void enter(Phase next) {
        if (next != current) {
            if (next == Phase.WAIT_INPUT || next == Phase.BACKPRESSURE) {
                onWait.run();
            }
            current = next;
            if (instrumented) {
                metrics.enter(next, System.nanoTime());
            }
        }
    }

    /**
     * Books what follows as waiting for input rather than useful time, without starting a wait: a
     * busy period, and its synthetic cost's catch-up, goes on afterwards. For work that is not
     * record work (a latency marker); returns the phase to {@link #resume}.
     */
    Phase setAside() {
        Phase before = current;
        if (before == Phase.USEFUL) {
            switchTo(Phase.WAIT_INPUT);
        }
        return before;
    }

    void resume(Phase before) {
        if (current != before) {
            switchTo(before);
        }
    }

    private void switchTo(Phase next) {
        current = next;
        if (instrumented) {
            metrics.enter(next, System.nanoTime());
        }
    }

    void records(long in, long out) {
        if (instrumented) {
            metrics.addRecords(in, out);
        }
    }

    void backlog(long records) {
        if (instrumented) {
            metrics.backlog(records);
        }
    }

    void finish() {
        current = Phase.FINISHED;
        metrics.finish(System.nanoTime());
    }
}
