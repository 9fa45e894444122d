package dev.flowscale.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {
    @Test
    void returnsTheFirstValueThatPassesTheCheckEvaluatedOnTheCallingThread() {
        AtomicInteger calls = new AtomicInteger();
        Thread test = Thread.currentThread();

        int value =
                Await.until(
                        Duration.ofSeconds(5),
                        "three calls",
                        () -> {
                            assertThat(Thread.currentThread()).isSameAs(test);
                            return calls.incrementAndGet();
                        },
                        n -> n >= 3);

        assertThat(value).isEqualTo(3);
    }

    @Test
    void aTimeoutNamesWhatWasAwaitedAndTheLastValueSeen() {
        assertThatThrownBy(
                        () ->
                                Await.until(
                                        Duration.ofMillis(200),
                                        "the answer",
                                        () -> 41,
                                        n -> n == 42))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("waiting for the answer")
                .hasMessageContaining("last: 41");
    }

    @Test
    void aProbeGivesItsFirstPresentValue() {
        AtomicInteger calls = new AtomicInteger();

        String value =
                Await.value(
                        Duration.ofSeconds(5),
                        "a value",
                        () ->
                                calls.incrementAndGet() < 2
                                        ? Optional.empty()
                                        : Optional.of("ready"));

        assertThat(value).isEqualTo("ready");
    }

    @Test
    void aConditionThatThrowsFailsAtOnceWithItsOwnError() {
        assertThatThrownBy(
                        () ->
                                Await.until(
                                        Duration.ofSeconds(30),
                                        "a failing check",
                                        () -> {
                                            throw new IllegalStateException("broken probe");
                                        }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("broken probe");
    }

    @Test
    void holdsPassesWhenTheConditionStaysTrueAndFailsAsSoonAsItTurnsFalse() {
        Await.holds(Duration.ofMillis(200), "a constant", () -> true);
        AtomicInteger calls = new AtomicInteger();

        assertThatThrownBy(
                        () ->
                                Await.holds(
                                        Duration.ofMinutes(5),
                                        "a flag that flips",
                                        () -> calls.incrementAndGet() < 3))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("a flag that flips");
    }
}
