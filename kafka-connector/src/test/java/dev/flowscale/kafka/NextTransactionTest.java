package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sink's next transaction is opened off the record path: on a thread of its own, started at a
 * checkpoint, so the first record after it does not pay for the opening.
 */
class NextTransactionTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final List<String> openedOn = new CopyOnWriteArrayList<>();
    private final List<String> discarded = new CopyOnWriteArrayList<>();
    private final List<String> interrupted = new CopyOnWriteArrayList<>();
    private final CountDownLatch mayOpen = new CountDownLatch(1);
    private final NextTransaction<String> next =
            new NextTransaction<>(this::open, discarded::add, "opener-under-test");

    @AfterEach
    void closeIt() {
        mayOpen.countDown();
        next.close();
    }

    private String open(String id) {
        openedOn.add(Thread.currentThread().getName());
        try {
            mayOpen.await();
        } catch (InterruptedException e) {
            interrupted.add(id);
            Thread.currentThread().interrupt();
        }
        return "transaction " + id;
    }

    @Test
    void whenOpenedAhead_thenTheOpeningRunsOnItsOwnThreadWhileTheCallerGoesOn() throws Exception {
        next.openAhead("t-1"); // returns while the opening waits

        Await.until(TIMEOUT, "the opening started", () -> !openedOn.isEmpty());
        mayOpen.countDown();

        assertThat(next.take("t-1")).isEqualTo("transaction t-1");
        assertThat(openedOn).containsExactly("opener-under-test");
    }

    @Test
    void whenOpenedAheadTwice_thenTheSecondWaitsForTheFirstToBeTaken() throws Exception {
        mayOpen.countDown();
        next.openAhead("t-1");
        next.openAhead("t-2");

        assertThat(next.take("t-1")).isEqualTo("transaction t-1");
        assertThat(openedOn).hasSize(1);
    }

    @Test
    void whenTheOpeningIsUnderWay_thenTakeIfOpenedAnswersNullWithoutWaiting() throws Exception {
        next.openAhead("t-1");
        Await.until(TIMEOUT, "the opening started", () -> !openedOn.isEmpty());

        assertThat(next.takeIfOpened("t-1")).isNull();

        mayOpen.countDown();
        Await.until(TIMEOUT, "the opening finished", () -> takenIfOpened("t-1"));
        assertThat(openedOn).containsExactly("opener-under-test");
    }

    private boolean takenIfOpened(String id) {
        try {
            return next.takeIfOpened(id) != null;
        } catch (InterruptedException e) {
            throw new AssertionError("interrupted taking " + id, e);
        }
    }

    @Test
    void whenNothingWasOpenedAhead_thenTakeIfOpenedStartsTheOpeningOnItsThread() throws Exception {
        assertThat(next.takeIfOpened("t-1")).isNull();

        Await.until(TIMEOUT, "the opening started", () -> !openedOn.isEmpty());
        assertThat(openedOn).containsExactly("opener-under-test");
        mayOpen.countDown();
        assertThat(next.take("t-1")).isEqualTo("transaction t-1");
    }

    @Test
    void whenNothingWasOpenedAheadForTheId_thenItOpensOnTheCaller() throws Exception {
        mayOpen.countDown();

        assertThat(next.take("t-7")).isEqualTo("transaction t-7");
        assertThat(openedOn).containsExactly(Thread.currentThread().getName());
    }

    @Test
    void whenClosedWithATransactionOpenedAhead_thenItIsDiscarded() {
        mayOpen.countDown();
        next.openAhead("t-1");
        Await.until(TIMEOUT, "the opening started", () -> !openedOn.isEmpty());
        next.close();

        Await.until(TIMEOUT, "the transaction discarded", () -> !discarded.isEmpty());
        assertThat(discarded).containsExactly("transaction t-1");
    }

    @Test
    void whenTheOpeningFails_thenTakeThrowsItsError() {
        NextTransaction<String> failing =
                new NextTransaction<>(
                        id -> {
                            throw new KafkaConnectorException("broker refused " + id);
                        },
                        discarded::add,
                        "failing-opener");
        failing.openAhead("t-1");

        assertThatThrownBy(() -> failing.take("t-1"))
                .isInstanceOf(KafkaConnectorException.class)
                .hasMessage("broker refused t-1");
        failing.close();
    }

    @Test
    void whenClosedWhileAnOpeningWaits_thenTheOpeningIsInterrupted() {
        next.openAhead("t-1");
        Await.until(TIMEOUT, "the opening started", () -> !openedOn.isEmpty());

        next.close();

        Await.until(TIMEOUT, "the opening interrupted", () -> !interrupted.isEmpty());
        assertThat(interrupted).containsExactly("t-1");
        Await.until(TIMEOUT, "what it opened discarded", () -> !discarded.isEmpty());
        assertThat(discarded).containsExactly("transaction t-1");
    }
}
