package dev.flowscale.cli;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.cli.ConvergenceCases.Start;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.ScalingDecision;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One query from one initial configuration on the embedded engine with the autoscaler live (the
 * same {@link EngineScaledRun} assembly as {@code flowscale run}): ticks the autoscaler as its
 * scheduler would until the configuration has held for {@code settledAfter} decisions in a row that
 * found nothing to change, or until the timeout.
 */
final class ConvergenceRun implements RunListener {
    /** A scheduler's pace, well under the policy interval. */
    private static final Duration TICK = Duration.ofMillis(250);

    /**
     * Decisions that neither confirm nor break a settled configuration: there was nothing to judge
     * yet.
     */
    private static final Set<BlockReason> NOT_JUDGED =
            Set.of(
                    BlockReason.WARMING_UP,
                    BlockReason.RESCALE_IN_PROGRESS,
                    BlockReason.METRICS_MISSING);

    /**
     * How a run is set up.
     *
     * @param rate events per second of the source
     * @param run the autoscaler's settings (from the settings table), savepoint storage is replaced
     *     by a fresh folder per run
     * @param settledAfter decisions in a row without a change that count as settled
     * @param timeout longest a run may take
     * @param explain log the reasons of every decision that scales
     */
    record Setup(
            double rate, RunSettings run, int settledAfter, Duration timeout, boolean explain) {}

    private final String label;
    private final PrintStream log;
    private final boolean explain;
    private final List<Map<String, Integer>> trajectory = new ArrayList<>();
    private int decisions;
    private int scaleDecisions;
    private int rescales;
    private int unchanged;
    private double settledAt;
    private String failure;

    private ConvergenceRun(
            String label, Map<String, Integer> initial, PrintStream log, boolean explain) {
        this.label = label;
        this.log = log;
        this.explain = explain;
        trajectory.add(initial);
    }

    /** Runs {@code c} from {@code start}; progress lines go to {@code log}. */
    static ConvergenceResult run(ConvergenceCase c, Start start, Setup setup, PrintStream log)
            throws Exception {
        Map<String, Integer> initial = start.of(c, setup.rate());
        ConvergenceRun run =
                new ConvergenceRun(c.query() + " " + start.label(), initial, log, setup.explain());
        Path storage = Files.createTempDirectory("flowscale-convergence-");
        RunSettings settings =
                new RunSettings(
                        setup.run().autoscaler(),
                        setup.run().rescaleTimeout(),
                        storage,
                        setup.run().emulatedRestart(),
                        null);
        try (EngineScaledRun job =
                new EngineScaledRun(
                        c.build(ConvergenceCases.events(setup.rate()), initial).build(),
                        settings,
                        new SimpleMeterRegistry(),
                        List.of(run))) {
            boolean settled = run.tickUntilSettled(job, setup);
            return run.result(c, start, setup.rate(), settled);
        } finally {
            deleteRecursively(storage);
        }
    }

    private boolean tickUntilSettled(EngineScaledRun job, Setup setup) throws InterruptedException {
        long deadline = System.nanoTime() + setup.timeout().toNanos();
        while (System.nanoTime() < deadline) {
            job.tick();
            synchronized (this) {
                if (failure != null) {
                    throw new CliException(label + ": " + failure);
                }
                if (unchanged >= setup.settledAfter() && rescales == scaleDecisions) {
                    return true;
                }
            }
            Thread.sleep(TICK.toMillis());
        }
        return false;
    }

    private synchronized ConvergenceResult result(
            ConvergenceCase c, Start start, double rate, boolean settled) {
        return new ConvergenceResult(
                c.query(),
                start.label(),
                trajectory,
                c.optimum(rate),
                settled,
                settledAt,
                decisions);
    }

    @Override
    public synchronized void onDecision(double t, ScalingDecision decision) {
        decisions++;
        if (decision.outcome() == Outcome.SCALE) {
            scaleDecisions++;
            unchanged = 0;
        } else if (decision.outcome() != Outcome.BLOCKED) {
            unchanged++;
        } else if (!NOT_JUDGED.contains(decision.blockReason().orElseThrow())) {
            unchanged = 0;
        }
        log.printf(
                Locale.ROOT,
                "%s %6.1f s  decision %s%s%n",
                label,
                t,
                decision.outcome(),
                decision.blockReason().map(r -> " (" + r + ")").orElse("")
                        + (decision.isScale() ? ": " + decision.changeSummary() : ""));
        boolean judged = decision.blockReason().map(r -> !NOT_JUDGED.contains(r)).orElse(false);
        if (explain && (decision.isScale() || judged)) {
            log.println(decision.explain());
        }
    }

    /** Called on the realizer's thread: records only. */
    @Override
    public synchronized void onRescale(double t, RescaleReport report) {
        rescales++;
        if (!report.succeeded()) {
            failure = report.summary();
            return;
        }
        Map<String, Integer> after = new LinkedHashMap<>(trajectory.get(trajectory.size() - 1));
        after.putAll(report.to());
        trajectory.add(after);
        settledAt = t;
        log.printf(Locale.ROOT, "%s %6.1f s  %s%n", label, t, report.summary());
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
