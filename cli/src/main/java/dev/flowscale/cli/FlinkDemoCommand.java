package dev.flowscale.cli;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.engine.cli.HelpOption;
import dev.flowscale.engine.cli.OptionValues;
import dev.flowscale.flink.FlinkJob;
import dev.flowscale.flink.FlinkJobRef;
import dev.flowscale.flink.FlinkRestClient;
import dev.flowscale.flink.SlotLimits;
import dev.flowscale.flink.demo.LocalFlinkCluster;
import dev.flowscale.policy.settings.Setting;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flowscale demo --engine flink}: a local Apache Flink 2.3 cluster in this JVM (MiniCluster,
 * REST on loopback, adaptive scheduler, {@value #SLOTS} slots) runs a real Flink word count with
 * keyed state and blocking per-record costs, from one instance per operator; flowscale scales it
 * through Flink's REST API exactly as {@code attach} scales a remote job.
 */
@Command(
        name = "demo-flink",
        hidden = true,
        sortOptions = false,
        abbreviateSynopsis = true,
        description =
                "Run a Flink word count on a local Flink 2.3 cluster in this process, with the"
                        + " autoscaler (what demo --engine flink runs).")
final class FlinkDemoCommand implements Callable<Integer> {
    static final int SLOTS = 8;

    @Spec CommandSpec spec;

    @Mixin FlinkWordCountOptions wordCount;

    @Option(
            names = "--duration",
            paramLabel = "D",
            defaultValue = "90s",
            converter = OptionValues.AnyDuration.class,
            description = "How long to run (default ${DEFAULT-VALUE}).")
    Duration duration;

    @Mixin ViewOptions view;

    @Mixin HelpOption help;

    private final PrintStream out;

    private FlinkDemoCommand(PrintStream out) {
        this.out = out;
    }

    static CommandSpec spec(PrintStream out) {
        return SettingOptions.addTo(CommandSpec.forAnnotatedObject(new FlinkDemoCommand(out)));
    }

    @Override
    public Integer call() throws Exception {
        Path claimed = view.report == null ? null : ReportFile.claim(view.report);
        var job = wordCount.settings(); // its options checked before Flink starts
        out.println(
                "flowscale: starting a local Flink 2.3 cluster (adaptive scheduler, "
                        + SLOTS
                        + " slots); Flink's log goes to "
                        + FlinkLog.toFile());
        try (LocalFlinkCluster flink = LocalFlinkCluster.start(SLOTS, true)) {
            FlinkRestClient rest = new FlinkRestClient(flink.rest(), Duration.ofSeconds(30));
            FlinkJobRef ref = new FlinkJobRef(rest, flink.submit(job));
            FlinkJob now = AttachCommand.awaitRunning(ref, Duration.ofSeconds(60));
            out.println("flink: REST " + flink.rest() + " (the web UI too)");
            JobAutoscaler.Settings settings =
                    AttachCommand.settings(spec, now, SLOTS, view.window, Setting.Profile.LOCAL);
            PrometheusMeterRegistry registry =
                    new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            Session.Subject subject =
                    new Session.Subject(
                            now.name(),
                            "scaling Flink job " + AttachedFlinkJob.shape(now),
                            AttachedFlinkJob.shape(now),
                            listeners ->
                                    new AttachedFlinkJob(
                                            ref,
                                            Optional.empty(),
                                            SlotLimits.cluster(ref.rest()),
                                            settings,
                                            Duration.ofMinutes(2),
                                            registry,
                                            listeners));
            return new Session(subject, settings, output(claimed), out, Clock.systemUTC()).run();
        }
    }

    private Session.Output output(Path claimed) {
        Map<String, String> given = new LinkedHashMap<>();
        given.put("engine", "flink");
        given.put("rate", wordCount.rate + "/s");
        given.put("split-cost", wordCount.splitCost.toString());
        given.put("count-cost", wordCount.countCost.toString());
        return new Session.Output(
                duration, view.printInterval, claimed, given, t -> wordCount.rate);
    }
}
