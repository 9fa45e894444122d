package dev.flowscale.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.checkpoint.ChildJvm;
import dev.flowscale.engine.runtime.RunningJob;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner process ends within its documented bounds whatever its user code does: on SIGTERM within
 * two {@link JobWatch#SHUTDOWN_STEP}s while a function blocks forever (ignoring interruption), and
 * by its {@code --duration} plus {@link JobWatch#DRAIN_GRACE} and a shutdown step while its source
 * never finishes opening, and by its {@code --duration} plus {@link BoundedStart#GRACE} while its
 * start-up never ends. The waits add {@link #LOADED_MACHINE} for a busy host; the bounds themselves
 * are not asserted as speeds.
 */
class RunnerProcessBoundsTest {
    private static final Duration LOADED_MACHINE = Duration.ofSeconds(20);

    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuilder output = new StringBuilder();
    private Process runner;
    @TempDir Path dir;

    @AfterEach
    void endTheRunner() {
        if (runner != null) {
            runner.destroyForcibly();
        }
    }

    @Test
    void sigtermEndsARunnerWhoseFunctionBlocksForever() throws Exception {
        start("--block", "function");
        awaitLine(BlockingJob.BLOCKED + "function", Duration.ofSeconds(60));

        runner.destroy(); // SIGTERM
        Duration bound = JobWatch.SHUTDOWN_STEP.multipliedBy(2);

        assertThat(runner.waitFor(bound.plus(LOADED_MACHINE).toMillis(), TimeUnit.MILLISECONDS))
                .as("the runner ended after SIGTERM; its output:\n%s", output)
                .isTrue();
    }

    @Test
    void durationEndsARunWhoseSourceNeverOpens() throws Exception {
        Duration beyond = JobWatch.DRAIN_GRACE.multipliedBy(2).plus(RunningJob.CLOSE_JOIN);

        assertThat(runsForTwoSecondsBlockedIn("open", beyond))
                .as("the run ended by its duration; its output:\n%s", output)
                .isTrue();
        assertThat(output).contains(BlockingJob.BLOCKED + "open").contains("duration reached");
    }

    @Test
    void durationEndsARunWhoseStartUpNeverEnds() throws Exception {
        assertThat(runsForTwoSecondsBlockedIn("build", BoundedStart.GRACE))
                .as("the run ended by its duration; its output:\n%s", output)
                .isTrue();
        assertThat(runner.exitValue()).as("output:\n%s", output).isZero();
        assertThat(output)
                .contains(BlockingJob.BLOCKED + "build")
                .contains("duration reached during start-up");
    }

    /**
     * Starts a runner with {@code --duration 2s} whose job blocks in {@code where}; whether it
     * ended within the duration, {@code beyond} it and {@link #LOADED_MACHINE}.
     */
    private boolean runsForTwoSecondsBlockedIn(String where, Duration beyond) throws Exception {
        Duration duration = Duration.ofSeconds(2);
        long started = System.nanoTime();
        start("--block", where, "--duration", duration.toMillis() + "ms");
        Duration bound = duration.plus(beyond).plus(LOADED_MACHINE);
        return runner.waitFor(
                bound.toNanos() - (System.nanoTime() - started), TimeUnit.NANOSECONDS);
    }

    private void start(String... jobArgs) throws Exception {
        List<String> args =
                new java.util.ArrayList<>(
                        List.of("run", "--job-class", BlockingJob.class.getName()));
        args.addAll(List.of(jobArgs));
        runner =
                ChildJvm.command(List.of("-Xmx128m"), EngineMain.class.getName(), args)
                        .directory(dir.toFile()) // its snapshot folder goes there
                        .redirectErrorStream(true)
                        .start();
        Thread reader = new Thread(this::readOutput, "runner-output");
        reader.setDaemon(true);
        reader.start();
    }

    private void readOutput() {
        try (BufferedReader in =
                new BufferedReader(
                        new InputStreamReader(runner.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                synchronized (output) {
                    output.append(line).append('\n');
                }
                lines.add(line);
            }
        } catch (java.io.IOException e) {
            lines.add("output unreadable: " + e);
        }
    }

    private void awaitLine(String expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (String line = ""; !line.contains(expected); ) {
            line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertThat(line)
                    .as("'%s' within %s; output:\n%s", expected, timeout, output)
                    .isNotNull();
        }
    }
}
