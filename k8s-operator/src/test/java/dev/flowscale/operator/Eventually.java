package dev.flowscale.operator;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Polls a value until it passes a check or a deadline passes (tests never sleep for a condition). */
final class Eventually {
    private static final Duration DEFAULT = Duration.ofSeconds(20);
    private static final long POLL_NANOS = Duration.ofMillis(50).toNanos();

    private Eventually() {
    }

    /** Kubernetes resources as YAML (their status included), anything else as text. */
    private static String describe(Object value) {
        return value instanceof io.fabric8.kubernetes.api.model.HasMetadata
                ? io.fabric8.kubernetes.client.utils.Serialization.asYaml(value) : String.valueOf(value);
    }

    static <T> T await(String what, Supplier<T> value, Predicate<T> check) {
        return await(DEFAULT, what, value, check);
    }

    static <T> T await(Duration timeout, String what, Supplier<T> value, Predicate<T> check) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = value.get();
        while (last == null || !check.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; last: " + describe(last));
            }
            LockSupport.parkNanos(POLL_NANOS);
            last = value.get();
        }
        return last;
    }
}
