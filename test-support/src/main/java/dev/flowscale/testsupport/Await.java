package dev.flowscale.testsupport;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/**
 * Waits for a condition with a deadline (Awaitility underneath): tests never sleep a fixed time
 * where a condition can be awaited. Conditions are evaluated on the calling (test) thread, so an
 * assertion inside one fails the test where it runs, and a failure names what was awaited.
 */
public final class Await {
    /** How often a condition is evaluated: short next to every timeout the tests use. */
    public static final Duration POLL = Duration.ofMillis(50);

    /** How late {@link #holds} may start counting on a loaded machine (a slow first evaluation). */
    private static final Duration SLACK = Duration.ofSeconds(10);

    private Await() {}

    /** Returns once {@code condition} holds; fails naming {@code what} after {@code timeout}. */
    public static void until(Duration timeout, String what, BooleanSupplier condition) {
        until(timeout, what, condition::getAsBoolean, Boolean.TRUE::equals);
    }

    /**
     * Returns once {@code condition} holds, evaluating it every {@code poll}: for a condition whose
     * evaluation does work (ticking a loop, say) at the pace that work needs.
     */
    public static void until(
            Duration timeout, Duration poll, String what, BooleanSupplier condition) {
        try {
            waiting(timeout, what).pollInterval(poll).until(condition::getAsBoolean);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("timed out after " + timeout + " waiting for " + what, e);
        }
    }

    /**
     * Returns once {@code condition} has held throughout {@code during}; fails as soon as it does
     * not. For what must not happen (a process that must stay up), where no event marks success.
     */
    public static void holds(Duration during, String what, BooleanSupplier condition) {
        try {
            Awaitility.await(what)
                    .failFast(what + " stopped holding", () -> !condition.getAsBoolean())
                    .during(during)
                    .atMost(during.plus(SLACK))
                    .pollInterval(POLL)
                    .pollInSameThread()
                    .until(condition::getAsBoolean);
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            throw new AssertionError(
                    "expected " + what + " to hold for " + during + ", and it did not", e);
        }
    }

    /**
     * The first present value {@code probe} gives; fails naming {@code what} after {@code timeout}.
     */
    public static <T> T value(Duration timeout, String what, Supplier<Optional<T>> probe) {
        return until(timeout, what, probe, Optional::isPresent).orElseThrow();
    }

    /** The first value that passes {@code check}; a failure shows the last value seen. */
    public static <T> T until(
            Duration timeout, String what, Supplier<T> value, Predicate<T> check) {
        return until(timeout, what, value, check, String::valueOf);
    }

    /**
     * The first non-null value that passes {@code check}; a failure shows the last value seen, as
     * {@code describe} renders it.
     */
    public static <T> T until(
            Duration timeout,
            String what,
            Supplier<T> value,
            Predicate<T> check,
            Function<T, String> describe) {
        AtomicReference<T> last = new AtomicReference<>();
        try {
            return waiting(timeout, what)
                    .until(
                            () -> {
                                T now = value.get();
                                last.set(now);
                                return now;
                            },
                            now -> now != null && check.test(now));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "timed out after "
                            + timeout
                            + " waiting for "
                            + what
                            + "; last: "
                            + (last.get() == null ? "null" : describe.apply(last.get())),
                    e);
        }
    }

    private static ConditionFactory waiting(Duration timeout, String what) {
        return Awaitility.await(what)
                .atMost(timeout)
                .pollDelay(Duration.ZERO)
                .pollInterval(POLL)
                .pollInSameThread();
    }
}
