package dev.flowscale.reconfig;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes; never a fixed sleep. */
final class Await {
    private Await() {
    }

    static void until(Duration timeout, String what, BooleanSupplier condition) {
        until(timeout, Duration.ofMillis(50), what, condition);
    }

    static void until(Duration timeout, Duration poll, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
