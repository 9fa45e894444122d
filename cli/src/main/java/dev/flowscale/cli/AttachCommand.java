package dev.flowscale.cli;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.engine.cli.HelpOption;
import dev.flowscale.engine.cli.OptionValues;
import dev.flowscale.flink.FlinkConnectorException;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.FlinkVertex;
import dev.flowscale.flink.JarResubmission;
import dev.flowscale.flink.SlotLimits;
import dev.flowscale.policy.PolicyException;
import dev.flowscale.policy.settings.Setting;
import dev.flowscale.policy.settings.SettingValues;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flowscale attach --flink <REST URL> [--job <id or name>]}: autoscales a running Flink job
 * through Flink's REST API, with the live view, reasons and report of {@code run}. In place when
 * the job runs the adaptive scheduler; through a savepoint when {@code --jar} names the jar it was
 * uploaded as.
 */
@Command(
        name = "attach",
        sortOptions = false,
        abbreviateSynopsis = true,
        description = "Autoscale a running Apache Flink job through its REST API.",
        footer =
                "Exit codes: 0 done, 1 the run failed, 2 bad arguments or no such Flink job (one line"
                        + " on stderr says which), 130 interrupted.%n")
final class AttachCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
            names = "--flink",
            required = true,
            paramLabel = "URL",
            description = "Flink's REST endpoint (the JobManager), e.g. http://localhost:8081.")
    String flink;

    @Option(
            names = "--job",
            paramLabel = "ID|NAME",
            description =
                    "The Flink job's id or name (default: the only running job; with several, they"
                            + " are listed).")
    String job;

    @Option(
            names = "--jar",
            paramLabel = "JARID",
            description =
                    "The id Flink gave the job's jar (GET /jars): a job on Flink's default scheduler is"
                            + " rescaled by stop-with-savepoint and running this jar again from it"
                            + " (default: in place only, which needs jobmanager.scheduler: adaptive).")
    String jar;

    @Option(
            names = "--entry-class",
            paramLabel = "CLASS",
            description = "The jar's entry class (default: its manifest's).")
    String entryClass;

    @Option(
            names = "--program-arg",
            paramLabel = "ARG",
            description =
                    "One argument of the job's program when the jar is run again (repeat it).")
    List<String> programArgs = new ArrayList<>();

    @Option(
            names = "--task-slots",
            paramLabel = "N",
            description =
                    "The most task slots the job may use; decisions are capped to fit (default: the"
                            + " cluster's, less those other jobs hold: a standalone or session cluster"
                            + " cannot add TaskManagers; give N for one that adds them on demand).")
    Integer taskSlots;

    @Option(
            names = "--rescale-timeout",
            paramLabel = "D",
            defaultValue = "2m",
            converter = OptionValues.PositiveDuration.class,
            description =
                    "How long a rescale may take before it is rolled back (default ${DEFAULT-VALUE}).")
    Duration rescaleTimeout;

    @Option(
            names = "--duration",
            paramLabel = "D",
            converter = OptionValues.AnyDuration.class,
            description =
                    "Stop autoscaling after D; the job keeps running (default: until Ctrl-C).")
    Duration duration;

    @Mixin ViewOptions view;

    @Mixin HelpOption help;

    private final PrintStream out;

    private AttachCommand(PrintStream out) {
        this.out = out;
    }

    /** The command, with the settings table's options. */
    static CommandSpec spec(PrintStream out) {
        return SettingOptions.addTo(
                CommandSpec.forAnnotatedObject(new AttachCommand(out)), Setting.Profile.FLINK);
    }

    @Override
    public Integer call() throws Exception {
        if (taskSlots != null && taskSlots < 1) {
            throw new CliException(
                    "option --task-slots "
                            + taskSlots
                            + ": give at least 1, or leave it out to use the cluster's slots");
        }
        Path claimed = view.report == null ? null : ReportFile.claim(view.report);
        FlinkJobRef ref = find(client(flink), job);
        FlinkJob now = ref.read();
        JobAutoscaler.Settings settings =
                settings(spec, now, Integer.MAX_VALUE, view.window, Setting.Profile.FLINK);
        Session.Output output =
                new Session.Output(
                        duration, view.printInterval, claimed, Map.of("flink", flink), null);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Optional<JarResubmission> resubmission =
                Optional.ofNullable(jar)
                        .map(id -> new JarResubmission(id, entryClass, programArgs));
        Session.Subject subject =
                new Session.Subject(
                        now.name(),
                        "scaling Flink job " + AttachedFlinkJob.shape(now) + " at " + flink,
                        AttachedFlinkJob.shape(now),
                        listeners ->
                                new AttachedFlinkJob(
                                        ref,
                                        resubmission,
                                        slots(ref),
                                        settings,
                                        rescaleTimeout,
                                        registry,
                                        listeners));
        return new Session(subject, settings, output, out, Clock.systemUTC()).run();
    }

    private SlotLimits slots(FlinkJobRef ref) {
        return taskSlots == null
                ? SlotLimits.cluster(ref.rest())
                : SlotLimits.configured(taskSlots, "option --task-slots is " + taskSlots);
    }

    /** A REST client for {@code --flink}, refused when it is not an http(s) URL with a host. */
    static FlinkRestClient client(String url) {
        try {
            URI uri = new URI(url);
            if (uri.getHost() == null
                    || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                throw new URISyntaxException(url, "not an http(s) URL with a host");
            }
            return new FlinkRestClient(uri, Duration.ofSeconds(10));
        } catch (URISyntaxException e) {
            throw new CliException(
                    "option --flink '"
                            + url
                            + "' is not an http(s) URL with a host; give Flink's REST endpoint,"
                            + " e.g. http://localhost:8081");
        }
    }

    /**
     * The job to scale: by id or name, or the only running one; an endpoint that does not answer,
     * an unknown job, or several running jobs without {@code --job} are refused, with the fix.
     */
    static FlinkJobRef find(FlinkRestClient rest, String idOrName) {
        try {
            FlinkJobRef ref = FlinkJobRef.find(rest, idOrName);
            FlinkJob found = ref.read();
            if (!found.running()) {
                throw new CliException(
                        "Flink job '"
                                + found.name()
                                + "' ("
                                + found.id()
                                + ") at "
                                + rest.base()
                                + " is "
                                + found.state()
                                + ", not RUNNING; attach to a running job");
            }
            return ref;
        } catch (FlinkConnectorException e) {
            throw new CliException("option --flink " + rest.base() + ": " + e.getMessage());
        }
    }

    /**
     * The settings table's values as given in {@code spec}, over {@code profile}'s defaults
     * (attach: a Flink job's; the Flink demo: a run in this process); the autoscaler's bound never
     * exceeds {@code slots} nor the largest max parallelism of the job's vertices (each vertex is
     * bounded by its own in the policy's view).
     */
    static JobAutoscaler.Settings settings(
            CommandSpec spec, FlinkJob now, int slots, Duration window, Setting.Profile profile) {
        Map<Setting, String> given = SettingOptions.given(spec);
        int keyGroups =
                now.vertices().stream().mapToInt(FlinkVertex::maxParallelism).max().orElse(1);
        int bound =
                Math.min(
                        Math.min(keyGroups, slots),
                        Integer.parseInt(Setting.MAX_PARALLELISM.defaultText(profile)));
        given.putIfAbsent(Setting.MAX_PARALLELISM, Integer.toString(bound));
        SettingValues values;
        try {
            values = SettingValues.resolve(given, "option --", profile);
        } catch (PolicyException e) {
            throw new CliException(e.getMessage());
        }
        JobAutoscaler.Settings settings = JobAutoscaler.Settings.of(values);
        return window == null ? settings : settings.withWindow(window);
    }

    /**
     * Waits until every subtask of {@code ref}'s job runs (a job still initializing shows no
     * vertices yet); the job then.
     */
    static FlinkJob awaitRunning(FlinkJobRef ref, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                FlinkJob now = ref.read();
                if (now.allVerticesRunning()) {
                    return now;
                }
                last = "state " + now.state();
            } catch (FlinkConnectorException e) {
                last = e.getMessage();
            }
            Thread.sleep(200);
        }
        throw new CliException(
                ref
                        + " did not run all its subtasks within "
                        + timeout.toSeconds()
                        + " s ("
                        + last
                        + "); see Flink's log");
    }
}
