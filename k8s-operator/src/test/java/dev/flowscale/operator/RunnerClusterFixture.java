package dev.flowscale.operator;

import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.loop.JobAutoscalers;
import dev.flowscale.operator.runner.HttpRunnerControl;
import dev.flowscale.operator.runner.RunnerControl;
import dev.flowscale.policy.sim.ManualClock;
import dev.flowscale.runner.api.RescaleView;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The operator on an {@link OptimisticMockServer} with what a cluster adds for the runner
 * Deployment jobs/wc-runner: a runner process ({@link LocalKubelet}) and its pod, scheduled and
 * resized by a {@link LocalScheduler}. The operator's clock is the test's; the autoscaler loops run
 * on the system clock.
 */
final class RunnerClusterFixture implements AutoCloseable {
    final OptimisticMockServer server = new OptimisticMockServer();
    final KubernetesClient client = server.client();
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    LocalKubelet kubelet;
    private LocalScheduler scheduler;
    private JobAutoscalers loops;
    private Operator operator;
    private boolean podLifeCycle;
    private final AtomicInteger stops = new AtomicInteger();

    /**
     * Starts the pod life cycle and the operator and creates {@code job}.
     *
     * @param accept the runner args the kubelet starts (others never become ready)
     * @param freeCpu the most CPU a node has free for a new pod
     * @param nodeCpu the CPU of the runner pod's node (a resize beyond it is Infeasible)
     */
    void start(
            Path dir,
            Predicate<List<String>> accept,
            String freeCpu,
            String nodeCpu,
            Duration rescaleTimeout,
            Clock clock,
            StreamJob job)
            throws IOException {
        try (InputStream crd = Files.newInputStream(StreamJobCrdTest.checkedInCrd())) {
            client.resource(Serialization.unmarshal(crd, CustomResourceDefinition.class)).create();
        }
        kubelet =
                new LocalKubelet(
                        client,
                        RunnerJobHarness.NS,
                        "wc-runner",
                        AutoscalingIT.engineJar(),
                        RunnerJobHarness.freePort(),
                        dir,
                        accept);
        scheduler =
                new LocalScheduler(
                        client,
                        RunnerJobHarness.NS,
                        "wc-runner",
                        new Quantity(freeCpu),
                        new Quantity(nodeCpu));
        if (podLifeCycle) {
            kubelet.runOnly(scheduler::runningPod);
        }
        loops =
                FlowscaleOperator.loops(
                        client,
                        registry,
                        j -> kubelet.address(),
                        rescaleTimeout,
                        Clock.systemUTC());
        operator =
                FlowscaleOperator.create(
                        client,
                        loops,
                        new CountingStops(
                                new HttpRunnerControl(
                                        j -> kubelet.address(), Duration.ofSeconds(10)),
                                stops),
                        clock);
        operator.start();
        client.resource(job).create();
    }

    /**
     * {@link #start} for any runner arguments on nodes of {@code cpu}, with the operator on the
     * system clock and a rescale timeout no test reaches ({@link
     * RunnerJobHarness#NO_RESCALE_TIMEOUT}).
     */
    void startOnSystemClock(Path dir, String cpu, StreamJob job) throws IOException {
        start(
                dir,
                args -> true,
                cpu,
                cpu,
                RunnerJobHarness.NO_RESCALE_TIMEOUT,
                Clock.systemUTC(),
                job);
    }

    /**
     * {@link #start} for any runner arguments on nodes of 16 CPUs, with the operator on {@code
     * clock}: its rescale timeout passes only when the test advances that clock.
     */
    void startOnManualClock(Path dir, ManualClock clock, StreamJob job) throws IOException {
        start(
                dir,
                args -> true,
                "16",
                "16",
                RunnerJobHarness.MANUAL_CLOCK_RESCALE_TIMEOUT,
                clock,
                job);
    }

    /**
     * Before {@link #start}: the runner process runs only for a scheduled pod on a node that is not
     * lost ({@link LocalKubelet#runOnly}), so {@link #loseNode} stops it.
     */
    void withPodLifeCycle() {
        podLifeCycle = true;
    }

    /**
     * Loses the runner pod's node: its runner process dies, its pod is marked not ready, and the
     * API server keeps a pod of that node that is deleted without grace period 0 Terminating
     * ({@link LostNodes}), with deletion deadlines from {@code clock}.
     */
    void loseNode(Supplier<Instant> clock) {
        server.loseNode(scheduler.loseNode(), clock);
    }

    /** The taint-based eviction of the lost node's pods: they turn Terminating, and stay. */
    void evictFromLostNodes() {
        scheduler.evictFromLostNodes();
    }

    /** How many stop-with-savepoint requests the operator sent the runner so far. */
    int stopRequests() {
        return stops.get();
    }

    /** The operator's runner control, counting its stop-with-savepoint requests. */
    private record CountingStops(RunnerControl control, AtomicInteger stops)
            implements RunnerControl {
        @Override
        public String stopWithSavepoint(StreamJob job) {
            stops.incrementAndGet();
            return control.stopWithSavepoint(job);
        }

        @Override
        public RescaleView rescale(StreamJob job, Map<String, Integer> parallelism) {
            return control.rescale(job, parallelism);
        }

        @Override
        public RunnerState state(StreamJob job) {
            return control.state(job);
        }

        @Override
        public Optional<String> latestSnapshot(StreamJob job) {
            return control.latestSnapshot(job);
        }
    }

    /** What the runner process says it runs. */
    RunnerControl.RunnerState runnerState() {
        return new HttpRunnerControl(j -> kubelet.address(), Duration.ofSeconds(5)).state(job());
    }

    StreamJob job() {
        return client.resources(StreamJob.class)
                .inNamespace(RunnerJobHarness.NS)
                .withName("wc")
                .get();
    }

    @Override
    public void close() {
        if (operator != null) {
            operator.stop();
            loops.close();
            scheduler.close();
            kubelet.close();
        }
        client.close();
        server.close();
    }
}
