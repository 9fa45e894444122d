package dev.flowscale.cli;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.engine.cli.BoundedStart;
import dev.flowscale.engine.cli.ShutdownHook;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.ScalingDecision;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;

/** One {@code flowscale run}: ticks the autoscaled job each second until the end, then reports. */
final class Session {
    private final Subject subject;
    private final JobAutoscaler.Settings settings;
    private final Output output;
    private final PrintStream out;
    private final Clock clock;

    /** The longest a session waits at its end for a rescale under way (its own bound is less). */
    static final Duration RESCALE_WAIT = Duration.ofMinutes(4);

    private final RunRecorder recorder = new RunRecorder();
    private volatile boolean stopRequested;

    /**
     * What a run prints and writes, checked before it starts.
     *
     * @param duration how long to run; null: until Ctrl-C
     * @param printEvery how often the live view prints
     * @param report the HTML report (already claimed by {@link ReportFile}); null: none
     * @param options the options as given, for the report's header
     * @param plannedRate the source's planned rate at a time since the start, for the report; null:
     *     none
     */
    record Output(
            Duration duration,
            Duration printEvery,
            Path report,
            Map<String, String> options,
            DoubleUnaryOperator plannedRate) {}

    /**
     * What a session autoscales.
     *
     * @param jobName the job's name, for the report
     * @param banner what the session does, e.g. "running word count (...)"
     * @param shape the job's operators and initial parallelism, for the report
     * @param start starts (or attaches to) the job with the session's listeners
     */
    record Subject(
            String jobName,
            String banner,
            String shape,
            Function<List<RunListener>, ScaledRun> start) {}

    /** A run of {@code graph} on the embedded engine. */
    Session(
            JobGraph graph,
            RunSettings settings,
            MeterRegistry registry,
            Output output,
            PrintStream out,
            Clock clock) {
        this(
                new Subject(
                        graph.jobName(),
                        "running " + graph,
                        graph.toString(),
                        listeners -> new EngineScaledRun(graph, settings, registry, listeners)),
                settings.autoscaler(),
                output,
                out,
                clock);
    }

    Session(
            Subject subject,
            JobAutoscaler.Settings settings,
            Output output,
            PrintStream out,
            Clock clock) {
        this.subject = subject;
        this.settings = settings;
        this.output = output;
        this.out = out;
        this.clock = clock;
    }

    int run() throws Exception {
        return run(BoundedStart.deadline(output.duration()));
    }

    /**
     * Runs until {@code end} ({@link System#nanoTime()}, from {@link BoundedStart#deadline}, taken
     * before anything of the run started: --duration bounds the start-up too), then reports.
     */
    int run(long end) throws Exception {
        Instant started = clock.instant();
        out.println(banner());
        try (ShutdownHook hook =
                ShutdownHook.install(() -> stopRequested = true, Duration.ofSeconds(30))) {
            Optional<ScaledRun> start =
                    BoundedStart.within(
                            end,
                            () -> subject.start().apply(List.of(live(), recorder)),
                            Session::closeQuietly);
            if (start.isEmpty()) {
                out.println(BoundedStart.overran(output.duration()));
                return 0;
            }
            try (ScaledRun job = start.get()) {
                String outcome = "failed";
                try {
                    loop(job, end);
                    awaitRescale(job);
                    outcome = stopRequested ? "stopped by Ctrl-C" : "completed";
                } finally {
                    report(job, started, outcome); // also when the run failed: it is kept
                }
            }
        }
        return 0;
    }

    private String banner() {
        Duration duration = output.duration();
        return "flowscale: "
                + subject.banner()
                + " with the DS2 autoscaler in mode "
                + settings.loop().mode()
                + ", deciding every "
                + settings.loop().policyInterval().toSeconds()
                + "s"
                + (duration == null ? "; Ctrl-C to stop" : " for " + duration.toSeconds() + "s");
    }

    private LiveConsole live() {
        return new LiveConsole(out, output.printEvery().toMillis() / 1000.0);
    }

    private static void closeQuietly(ScaledRun job) {
        try {
            job.close();
        } catch (Exception e) {
            System.err.println("warning: closing the job started after the duration: " + e);
        }
    }

    /** Ticks {@code job} about once a second until {@code end} (nanoTime) or it ends. */
    private void loop(ScaledRun job, long end) throws InterruptedException {
        long next = System.nanoTime();
        while (!stopRequested && System.nanoTime() < end && !job.ended()) {
            job.tick();
            next += TimeUnit.SECONDS.toNanos(1);
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                TimeUnit.NANOSECONDS.sleep(Math.min(sleep, Math.max(1, end - System.nanoTime())));
            }
        }
    }

    /**
     * Lets a rescale under way at the end finish and report before the summary, so that the summary
     * comes last and the report holds every rescale. Not after Ctrl-C, which has a shorter bound.
     */
    private void awaitRescale(ScaledRun job) throws InterruptedException {
        if (stopRequested || !job.rescaling()) {
            return;
        }
        out.printf(
                "%nflowscale: waiting for the rescale under way to end (at most %ds)%n",
                RESCALE_WAIT.toSeconds());
        long deadline = System.nanoTime() + RESCALE_WAIT.toNanos();
        while (job.rescaling() && !stopRequested && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    private void report(ScaledRun job, Instant started, String outcome) throws Exception {
        String summary = summary(job);
        out.println();
        out.print(summary);
        if (output.report() != null) {
            HtmlReport.Header header =
                    new HtmlReport.Header(
                            subject.jobName(),
                            subject.shape(),
                            started,
                            clock.instant(),
                            outcome,
                            output.options(),
                            output.plannedRate());
            HtmlReport.write(output.report(), header, recorder, summary);
            out.println("report: " + output.report());
        }
    }

    private String summary(ScaledRun job) {
        List<ScalingDecision> decisions = recorder.decisions();
        List<RescaleReport> rescales =
                recorder.rescales().stream().filter(RescaleReport::succeeded).toList();
        Map<String, Integer> initial = job.initialParallelism();
        Map<String, Integer> last = job.parallelism();
        StringBuilder s =
                new StringBuilder(
                        String.format(
                                "Summary after %.0fs: %d decisions (%d to scale), %d rescales, "
                                        + "total downtime %d ms%n",
                                job.elapsed(),
                                decisions.size(),
                                decisions.stream()
                                        .filter(d -> d.outcome() == Outcome.SCALE)
                                        .count(),
                                rescales.size(),
                                rescales.stream().mapToLong(r -> r.downtime().toMillis()).sum()));
        s.append(String.format("  %-12s %8s %8s %8s%n", "operator", "initial", "final", "changes"));
        initial.forEach(
                (op, p) ->
                        s.append(
                                String.format(
                                        "  %-12s %8d %8d %8d%n",
                                        op,
                                        p,
                                        last.get(op),
                                        rescales.stream()
                                                .filter(
                                                        r ->
                                                                r.to().containsKey(op)
                                                                        && !r.to().get(op)
                                                                                .equals(
                                                                                        r.from()
                                                                                                .get(
                                                                                                        op)))
                                                .count())));
        return s.toString();
    }
}
