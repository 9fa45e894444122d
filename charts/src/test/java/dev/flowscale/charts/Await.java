package dev.flowscale.charts;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes (tests never sleep a fixed time to wait). */
final class Await {
    private static final long POLL_MILLIS = 200;

    private Await() {
    }

    /** The first present value {@code probe} returns; fails naming {@code what} at the deadline. */
    static <T> T until(Duration timeout, String what, Supplier<Optional<T>> probe) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
        }
    }

    /** Like {@link #until}, for a condition without a value. */
    static void untilTrue(Duration timeout, String what, Supplier<Boolean> condition) throws InterruptedException {
        until(timeout, what, () -> condition.get() ? Optional.of(true) : Optional.empty());
    }
}
