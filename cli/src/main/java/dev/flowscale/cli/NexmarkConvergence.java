package dev.flowscale.cli;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.cli.ConvergenceCases.Start;
import dev.flowscale.common.DurationText;
import dev.flowscale.engine.cli.OptionValues;
import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.settings.Setting;
import dev.flowscale.policy.settings.SettingValues;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The DS2 paper's convergence table (its Table 4) on the real engine: Nexmark Q3, Q5, Q8 and Q11,
 * each started from several initial configurations at a fixed rate with per-operator costs whose
 * optimum is worked out by hand ({@link ConvergenceCases}), run with the autoscaler live until the
 * configuration settles. Prints the derivation of each optimum, one line per decision and rescale
 * (stderr), and a Markdown table (stdout). Not part of the build's tests: a full table takes about
 * 8 minutes with the paper's DS2 and 17 with the local defaults on this machine. See
 * docs/benchmarks.md for the command and the figures.
 */
@Command(
        name = "nexmark-convergence",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = "DS2 Table-4-style convergence runs of Nexmark Q3/Q5/Q8/Q11 on the engine.")
public final class NexmarkConvergence implements Callable<Integer> {
    @Option(
            names = "--queries",
            split = ",",
            defaultValue = "q3,q5,q8,q11",
            description = "Queries to run (default ${DEFAULT-VALUE}).")
    List<String> queries;

    @Option(
            names = "--starts",
            split = ",",
            defaultValue = "all-1,under,over,mixed",
            description = "Initial configurations (default ${DEFAULT-VALUE}).")
    List<String> starts;

    @Option(
            names = "--policy",
            defaultValue = "ds2",
            description =
                    "ds2: the paper's DS2 (no catch-up, linear scaling, no skew correction, no"
                            + " delays); local: `flowscale run`'s defaults. Default ${DEFAULT-VALUE}.")
    String policy;

    @Option(
            names = "--setting",
            paramLabel = "NAME=VALUE",
            description =
                    "Any autoscaler setting over the policy's, by its option name, e.g."
                            + " skew-correction=false (repeatable).")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(
            names = "--interval",
            defaultValue = "6s",
            converter = OptionValues.PositiveDuration.class,
            description = "Policy interval (default ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(
            names = "--window",
            defaultValue = "4s",
            converter = OptionValues.PositiveDuration.class,
            description =
                    "Metrics window of a decision (default ${DEFAULT-VALUE}; shorter than the interval"
                            + " so that the first window after a rescale and its warm-up is complete).")
    Duration window;

    @Option(
            names = "--warm-up",
            defaultValue = "1s",
            converter = OptionValues.AnyDuration.class,
            description = "Metrics dropped after a start or rescale (default ${DEFAULT-VALUE}).")
    Duration warmUp;

    @Option(
            names = "--settled-after",
            defaultValue = "3",
            converter = OptionValues.Positive.class,
            description =
                    "Decisions in a row without a change that count as settled (default ${DEFAULT-VALUE}).")
    int settledAfter;

    @Option(
            names = "--timeout",
            defaultValue = "150s",
            converter = OptionValues.PositiveDuration.class,
            description = "Longest one run may take (default ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(
            names = "--explain",
            description =
                    "Print the reasons of every decision that scales or is held back by a guard (stderr).")
    boolean explain;

    @Option(
            names = "--check",
            description = "Exit 1 unless every run settles at the hand-computed optimum.")
    boolean check;

    private final PrintStream out;
    private final PrintStream log;

    NexmarkConvergence(PrintStream out, PrintStream log) {
        this.out = out;
        this.log = log;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new NexmarkConvergence(System.out, System.err)).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<ConvergenceCase> cases = queries.stream().map(ConvergenceCases::named).toList();
        List<Start> order = starts.stream().map(NexmarkConvergence::start).toList();
        RunSettings settings = settings();
        ConvergenceRun.Setup setup =
                new ConvergenceRun.Setup(
                        ConvergenceCases.RATE, settings, settledAfter, timeout, explain);
        printHeader(settings);
        List<String> rows = new ArrayList<>();
        int missed = 0;
        for (ConvergenceCase c : cases) {
            for (Start s : order) {
                ConvergenceResult r = ConvergenceRun.run(c, s, setup, log);
                rows.add(r.row(c.operators()));
                missed += r.atOptimum() ? 0 : 1;
                log.println(rows.get(rows.size() - 1));
            }
        }
        out.println();
        out.println(ConvergenceResult.header());
        rows.forEach(out::println);
        out.printf(
                Locale.ROOT,
                "%n%d of %d runs settled at the hand-computed optimum; finished %s, load average %.1f%n",
                rows.size() - missed,
                rows.size(),
                Instant.now(),
                loadAverage());
        return check && missed > 0 ? 1 : 0;
    }

    private void printHeader(RunSettings settings) {
        out.printf(
                Locale.ROOT,
                "Nexmark convergence, started %s, load average %.1f, %d events/s, policy %s%n",
                Instant.now(),
                loadAverage(),
                (long) ConvergenceCases.RATE,
                policy + (overrides.isEmpty() ? "" : " with " + overrides));
        out.println("policy settings: " + settings.autoscaler());
        for (String query : queries) {
            ConvergenceCase c = ConvergenceCases.named(query);
            out.println(
                    c.query()
                            + " operators (configurations below in this order): "
                            + String.join("/", c.operators()));
            c.derivation(ConvergenceCases.RATE).forEach(out::println);
            out.println(
                    c.query()
                            + " optimum: "
                            + ConvergenceResult.config(
                                    c.optimum(ConvergenceCases.RATE), c.operators()));
        }
    }

    /**
     * The autoscaler's settings through the settings table (as {@code flowscale run} resolves
     * them), over the local profile's defaults.
     */
    RunSettings settings() {
        Map<Setting, String> given = new EnumMap<>(Setting.class);
        given.put(Setting.POLICY_INTERVAL, DurationText.format(interval));
        given.put(Setting.WARM_UP, DurationText.format(warmUp));
        switch (policy) {
            case "ds2" -> {
                given.put(Setting.CATCH_UP, "0s");
                given.put(Setting.SCALE_DOWN_DELAY, "0s");
                given.put(Setting.MAX_RESCALES_PER_HOUR, "0");
                given.put(Setting.LEARN_SCALABILITY, "false");
                given.put(Setting.SCALABILITY_PRIOR, "1");
                given.put(Setting.CONFIRM_NEED, "false");
                given.put(Setting.SKEW_CORRECTION, "false");
            }
            case "local" -> {}
            default ->
                    throw new CliException("option --policy is '" + policy + "'; use ds2 or local");
        }
        overrides.forEach(
                (name, value) ->
                        given.put(
                                Setting.named(name)
                                        .orElseThrow(
                                                () ->
                                                        new CliException(
                                                                "option --setting names '"
                                                                        + name
                                                                        + "', not a setting; use an option"
                                                                        + " name of flowscale run, e.g."
                                                                        + " skew-correction")),
                                value));
        SettingValues values;
        try {
            values = SettingValues.resolve(given, "--", Setting.Profile.LOCAL);
        } catch (PolicyException e) {
            throw new CliException(e.getMessage());
        }
        return new RunSettings(
                JobAutoscaler.Settings.of(values).withWindow(window),
                Duration.ofMinutes(2),
                null,
                Duration.ZERO,
                null);
    }

    private static Start start(String label) {
        for (Start s : Start.values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw new CliException(
                "option --starts names '" + label + "'; use all-1, under, over or mixed");
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
