package dev.flowscale.charts;

import dev.flowscale.autoscaler.export.ControllerMetrics;
import dev.flowscale.autoscaler.realizer.RescaleListener;
import dev.flowscale.autoscaler.testing.HttpRunnerScalingRealizer;
import dev.flowscale.autoscaler.testing.ProcessRunnerLauncher;
import dev.flowscale.autoscaler.testing.RunnerCommand;
import dev.flowscale.autoscaler.testing.RunnerLauncher;
import dev.flowscale.autoscaler.window.WindowSettings;
import dev.flowscale.autoscaler.window.WindowedMetricsProvider;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.loop.AutoscalerLoop;
import dev.flowscale.testsupport.Await;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The controller as the operator runs it, on one machine: the word count in a job runner process
 * with a bottleneck (split sleeps 25 ms per sentence, count 2.5 ms per word: 40 sentences/s and 400
 * words/s per instance at 100 sentences/s of 20 words, so DS2 wants about 3 split and 5 count
 * instances, more while the backlog drains), the DS2 loop in mode auto over the runner's JSON API,
 * and the controller's metrics on an HTTP endpoint of this JVM. Ticks once a second in the
 * background.
 */
final class AutoscaledRunner implements AutoCloseable {
    static final String JOB = "wordcount";
    private static final List<String> JOB_ARGS =
            List.of(
                    "--rate",
                    "100",
                    "--words-per-sentence",
                    "20",
                    "--vocabulary",
                    "100000",
                    "--key-groups",
                    "200",
                    "--cost",
                    "split=sleep:25ms,count=sleep:2500us",
                    "--print-interval",
                    "60s",
                    "--latency-interval",
                    "500ms");
    private static final Map<String, Integer> INITIAL = Map.of("split", 1, "count", 1);
    private static final Duration INTERVAL = Duration.ofSeconds(4);
    private static final Duration WINDOW = Duration.ofMillis(3500);
    private static final Duration WARM_UP = Duration.ofSeconds(2);
    private static final PolicyConfig POLICY =
            PolicyConfig.builder()
                    .jobBounds(1, 16)
                    .warmUp(WARM_UP)
                    .noiseTolerance(0.02)
                    .catchUpDuration(Duration.ofSeconds(10))
                    .scaleDownDelay(Duration.ofSeconds(8))
                    .expectedRescaleDuration(Duration.ofSeconds(2))
                    .build();
    private static final Duration RUNNER_READY = Duration.ofSeconds(60);
    private static final Duration RESCALE_TIMEOUT = Duration.ofSeconds(40);

    private final Clock clock = Clock.systemUTC();
    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MetricsHttpServer endpoint = MetricsHttpServer.start("127.0.0.1", 0, registry);
    private final ProcessRunnerLauncher processes;
    private final HttpRunnerScalingRealizer realizer;
    private final WindowedMetricsProvider provider;
    private final AutoscalerLoop autoscaler;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();

    AutoscaledRunner(Path engineJar, Path dir, ScrapeTargets targets, RunRecord record) {
        processes =
                new ProcessRunnerLauncher(
                        RunnerCommand.of(engineJar, JOB, JOB_ARGS, dir.resolve("snapshots"))
                                .withJvmOptions(
                                        List.of(
                                                "-Xmx192m",
                                                "-XX:+UseSerialGC",
                                                "-XX:TieredStopAtLevel=1")),
                        dir.resolve("logs"),
                        RUNNER_READY);
        RunnerLauncher launcher = new AnnouncingLauncher(processes, targets, controller());
        URI first = launcher.start(INITIAL, null);
        ControllerMetrics metrics = new ControllerMetrics(registry, Mode.AUTO);
        RescaleListener timing = r -> metrics.rescaleFinished(r.job(), r.downtime(), r.succeeded());
        realizer =
                new HttpRunnerScalingRealizer(
                        first, launcher, RESCALE_TIMEOUT, clock, List.of(timing, record));
        provider =
                new WindowedMetricsProvider(
                        new FollowingRunnerSource(realizer::runner, Duration.ofSeconds(2)),
                        new WindowSettings(WINDOW, WARM_UP),
                        List.of(metrics));
        autoscaler =
                new AutoscalerLoop(
                        AutoscalerConfig.of(Mode.AUTO, INTERVAL),
                        new Ds2Policy(POLICY, clock),
                        provider,
                        realizer,
                        List.of(metrics, record),
                        clock,
                        e -> System.err.println("DashboardQueriesIT autoscaler: " + e));
        ticker.scheduleAtFixedRate(this::tick, 0, 1, TimeUnit.SECONDS);
    }

    /** The controller's metrics endpoint (GET /metrics). */
    URI controller() {
        return URI.create("http://127.0.0.1:" + endpoint.port());
    }

    private void tick() {
        try {
            provider.poll();
            autoscaler.tick();
        } catch (RuntimeException e) {
            System.err.println("DashboardQueriesIT tick: " + e);
        }
    }

    /** Stops deciding (the runner keeps running) and waits for a rescale in progress to end. */
    void stopDeciding() throws InterruptedException {
        ticker.shutdown();
        ticker.awaitTermination(10, TimeUnit.SECONDS);
        Await.until(RESCALE_TIMEOUT, "the last rescale to end", () -> !realizer.inProgress());
    }

    @Override
    public void close() throws InterruptedException {
        ticker.shutdownNow();
        realizer.close();
        processes.close();
        endpoint.close();
    }
}
