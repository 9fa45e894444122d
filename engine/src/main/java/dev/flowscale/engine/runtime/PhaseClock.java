package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceCounterRecorder;
import dev.flowscale.engine.metrics.InstanceCounterRecorder.Phase;
import java.util.Arrays;

/**
 * The task thread's view of its own phase. It reads the clock only when the phase changes, so a
 * task that always finds input and room for output pays nothing per batch for timing. The operators
 * chained behind a chain's head follow its clock: their counters go through the same phases at the
 * same instants, and {@link ChainTiming} splits the useful time between them.
 */
final class PhaseClock {
    private final InstanceCounterRecorder metrics;
    private final boolean instrumented;
    private Phase current = Phase.NOT_STARTED;
    private Runnable onWait = () -> {};
    private InstanceCounterRecorder[] followers = new InstanceCounterRecorder[0];

    /** The chain's sampling, told when the thread stops and resumes useful work; may be null. */
    private ChainTiming timing;

    /** Tells {@code chainTiming} of every change between useful time and a wait. */
    void timeChain(ChainTiming chainTiming) {
        this.timing = chainTiming;
    }

    /** Also called whenever the task starts waiting (for input or for room downstream). */
    void onWait(Runnable callback) {
        Runnable before = onWait;
        this.onWait =
                () -> {
                    before.run();
                    callback.run();
                };
    }

    /** Makes a chained operator's counters follow this clock; before the thread starts. */
    void follow(InstanceCounterRecorder chained) {
        followers = Arrays.copyOf(followers, followers.length + 1);
        followers[followers.length - 1] = chained;
    }

    PhaseClock(InstanceCounterRecorder metrics, boolean instrumented) {
        this.metrics = metrics;
        this.instrumented = instrumented;
    }

    void start() {
        current = Phase.USEFUL;
        long now = System.nanoTime();
        metrics.start(now);
        for (InstanceCounterRecorder follower : followers) {
            follower.start(now);
        }
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
            switchTo(next);
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

    /**
     * Books the time from {@code since} on as useful, for work known to be useful only once it
     * ended: a poll after an idle wait starts as waiting and, if it brought records, counts as
     * useful from its start. {@code since} is a {@link System#nanoTime} reading taken after the
     * wait began; a clock that is not waiting is left as it is.
     */
    void usefulSince(long since) {
        if (current == Phase.WAIT_INPUT) {
            switchTo(Phase.USEFUL, since);
        }
    }

    private void switchTo(Phase next) {
        switchTo(next, instrumented ? System.nanoTime() : 0);
    }

    private void switchTo(Phase next, long now) {
        current = next;
        if (instrumented) {
            metrics.enter(next, now);
            for (InstanceCounterRecorder follower : followers) {
                follower.enter(next, now);
            }
            if (timing != null) {
                if (next == Phase.USEFUL) {
                    timing.resume(now);
                } else {
                    timing.suspend(now);
                }
            }
        }
    }

    void records(long in, long out) {
        if (instrumented) {
            metrics.addRecords(in, out);
        }
    }

    void backlog(Long records) {
        if (instrumented) {
            metrics.backlog(records);
        }
    }

    void finish() {
        current = Phase.FINISHED;
        long now = System.nanoTime();
        metrics.finish(now);
        for (InstanceCounterRecorder follower : followers) {
            follower.finish(now);
        }
    }
}
