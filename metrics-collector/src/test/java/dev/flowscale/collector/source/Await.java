package dev.flowscale.collector.source;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes; never a fixed sleep. */
final class Await {
    private Await() {
    }

    /** Polls {@code attempt} every 100 ms until it gives a value; fails with {@code what} after {@code timeout}. */
    static <T> T until(Duration timeout, String what, Supplier<Optional<T>> attempt) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<T> value = attempt.get();
            if (value.isPresent()) {
                return value.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", e);
        }
    }

    static int freePort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new AssertionError("no free port", e);
        }
    }
}
