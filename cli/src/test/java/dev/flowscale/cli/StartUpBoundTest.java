package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.cli.BlockingJob;
import dev.flowscale.engine.cli.BoundedStart;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --duration} bounds a run's start-up too: a start-up that outlasts it, in code that ignores
 * interruption, is left behind and the run ends at its duration plus {@link BoundedStart#GRACE}.
 * The waits add {@link #LOADED_MACHINE} for a busy host; the bound is not asserted as a speed.
 */
class StartUpBoundTest {
    private static final Duration DURATION = Duration.ofSeconds(2);
    private static final Duration LOADED_MACHINE = Duration.ofSeconds(20);

    /** Holds the start-up of the session test until the test ends. */
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseTheStartUp() {
        release.countDown();
    }

    @Test
    void aJobWhoseStartNeverEndsIsLeftBehindAtTheDuration() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Session session =
                new Session(
                        new Session.Subject("job", "testing", "op=1", listeners -> startForever()),
                        RunCommand.parsed(List.of("wordcount")).settings().autoscaler(),
                        new Session.Output(DURATION, Duration.ofSeconds(1), null, Map.of(), null),
                        out,
                        Clock.systemUTC());

        int code = withinBound(session::run);

        assertThat(code).isZero();
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("duration reached during start-up (--duration 2s)")
                .doesNotContain("Summary after");
    }

    @Test
    void aUserJobWhoseBuildNeverEndsEndsTheRunAtItsDuration() throws Exception {
        CommandRun cli = new CommandRun();

        int code =
                withinBound(
                        () ->
                                cli.run(
                                        "run",
                                        "--job-class",
                                        BlockingJob.class.getName(),
                                        "--block",
                                        "build",
                                        "--duration",
                                        "2s"));

        assertThat(code).as("errors: %s", cli.errors()).isZero();
        assertThat(cli.output()).contains("duration reached during start-up (--duration 2s)");
    }

    /** Blocks until the test ends, ignoring interruption, as user code may. */
    private ScaledRun startForever() {
        while (true) {
            try {
                release.await();
                throw new IllegalStateException("released at the end of the test");
            } catch (InterruptedException e) {
                // Ignored on purpose.
            }
        }
    }

    /** Runs {@code run} on a thread of its own and asserts that it ends within the bound. */
    private static int withinBound(java.util.concurrent.Callable<Integer> run) throws Exception {
        FutureTask<Integer> task = new FutureTask<>(run);
        Thread thread = new Thread(task, "start-up-bound-test");
        thread.setDaemon(true);
        thread.start();
        long bound = DURATION.plus(BoundedStart.GRACE).plus(LOADED_MACHINE).toNanos();
        thread.join(TimeUnit.NANOSECONDS.toMillis(bound));
        assertThat(task.isDone())
                .as("the run ended within its duration + %s", LOADED_MACHINE)
                .isTrue();
        return task.get();
    }
}
