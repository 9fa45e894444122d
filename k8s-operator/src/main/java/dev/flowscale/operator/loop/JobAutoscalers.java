package dev.flowscale.operator.loop;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.autoscaler.metrics.RunnerHttpMetricsSource;
import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.DurationText;
import dev.flowscale.operator.core.JobEvents;
import dev.flowscale.operator.core.JobStatusStore;
import dev.flowscale.operator.core.RescaleReporting;
import dev.flowscale.operator.flink.FlinkDeployments;
import dev.flowscale.operator.flink.FlinkTargetParts;
import dev.flowscale.operator.flink.FlinkTargetStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The autoscaler loops of all StreamJobs in this operator: one {@link JobAutoscaler} (the assembly
 * the command line uses too) per job that runs (phase Running or Rescaling, mode auto or recommend,
 * not suspended), ticked on a shared scheduler. A loop samples its runner's JSON API ({@link
 * RunnerHttpMetricsSource}), publishes each decision through the {@link JobStatusReporter}, and in
 * mode auto realizes a decision with the {@link StatusScalingRealizer}: it records the new
 * parallelism in status for the reconciler to apply. A loop never changes the runner (the
 * reconciler does), so it can be rebuilt at any time: when the autoscaler settings change, and
 * stopped when the job is deleted (seen in the reconciler's informer cache), suspended, failed or
 * its mode is off. A StreamJob that targets a Flink job ({@code spec.flink}) gets its source from
 * {@link FlinkTargetParts}; a session cluster's job keeps the status realizer (the reconciler
 * rescales it), a FlinkDeployment's gets the realizer that writes its overrides, shown in status,
 * Events and metrics by {@link FlinkTargetStatus}. What a loop learns is kept in the job's {@link
 * ConfigMapHistoryStore}, so a loop rebuilt here or by the next leader resumes from it.
 */
public final class JobAutoscalers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JobAutoscalers.class);
    static final Duration RUNNER_TIMEOUT = Duration.ofSeconds(5);
    private final KubernetesClient client;
    private final JobStatusStore store;
    private final FlinkDeployments deployments;
    private final JobEvents events;
    private final RescaleReporting reporting;
    private final MeterRegistry registry;
    private final Function<StreamJob, URI> address;
    private final Duration tick;
    private final Duration rescaleTimeout;
    private final Clock clock;
    private final Map<String, RunningAutoscaler> loops = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler =
            Executors.newScheduledThreadPool(
                    2,
                    r -> {
                        Thread t = new Thread(r, "flowscale-autoscalers");
                        t.setDaemon(true);
                        return t;
                    });

    /**
     * What a loop may do with its job besides recording decisions in status: ask for a reconcile
     * (after it recorded one), and read the job from the informer cache (empty once it is deleted):
     * its status says when a rescale started and finished.
     */
    public record JobHandle(Runnable reconcile, Supplier<Optional<StreamJob>> cached) {}

    /** A job's autoscaler as it runs: the settings it was built from and its scheduled ticks. */
    private record RunningAutoscaler(
            String settings, JobAutoscaler autoscaler, ScheduledFuture<?> ticks) {}

    /**
     * @param address the runner API of a job (the runner Service's address in a cluster)
     * @param tick how often each runner is sampled
     * @param rescaleTimeout how long the reconciler waits for a changed runner before rolling back,
     *     for jobs without spec.timeouts.rescale
     */
    public JobAutoscalers(
            KubernetesClient client,
            JobEvents events,
            MeterRegistry registry,
            Function<StreamJob, URI> address,
            Duration tick,
            Duration rescaleTimeout,
            Clock clock) {
        this.client = client;
        this.store = new JobStatusStore(client);
        this.deployments = new FlinkDeployments(client);
        this.events = events;
        this.registry = registry;
        this.reporting = new RescaleReporting(events, registry);
        this.address = address;
        this.tick = tick;
        this.rescaleTimeout = rescaleTimeout;
        this.clock = clock;
    }

    public MeterRegistry registry() {
        return registry;
    }

    /**
     * Starts, restarts (settings changed) or stops the job's loop; called after every reconcile.
     */
    public synchronized void reconcile(StreamJob job, JobHandle handle) {
        String key = key(job);
        // A changed Flink target (another deployment, URL or job) needs a new loop too.
        String settings =
                job.getMetadata().getUid()
                        + Serialization.asJson(job.getSpec().autoscaler)
                        + Serialization.asJson(job.getSpec().flink);
        RunningAutoscaler current = loops.get(key);
        if (current != null && (!wanted(job, true) || !current.settings().equals(settings))) {
            stop(key);
        }
        if (wanted(job, false) && !loops.containsKey(key)) {
            loops.put(key, start(job, settings, handle));
        }
    }

    /** Whether the job has a loop now (for tests and health). */
    public boolean running(String namespace, String name) {
        return loops.containsKey(namespace + "/" + name);
    }

    /**
     * A loop starts once the job runs (Running or Rescaling) and keeps running while its runner is
     * only not ready (Deploying): a runner answers its readiness probe with 503 while it rescales
     * in place, and the kubelet reports it ready again only at its next successful probe (up to
     * periodSeconds after it runs), so the pass that finishes the rescale may see the Deployment
     * not ready. Stopping the loop then discarded its history and, through {@link
     * JobAutoscaler#close}, every controller series of the job, the rescale just reported included.
     */
    private static boolean wanted(StreamJob job, boolean hasLoop) {
        JobPhase phase = job.getStatus() == null ? null : job.getStatus().phase;
        boolean runs =
                phase == JobPhase.Running
                        || phase == JobPhase.Rescaling
                        || hasLoop && phase == JobPhase.Deploying;
        return runs
                && !job.getSpec().suspend
                && job.getSpec().autoscaler.mode != AutoscalerMode.OFF;
    }

    private RunningAutoscaler start(StreamJob job, String settings, JobHandle handle) {
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        JobStatusReporter reporter = new JobStatusReporter(store, events, ns, name, clock);
        StatusScalingRealizer toStatus =
                new StatusScalingRealizer(
                        store, ns, name, handle.reconcile(), handle.cached(), clock);
        FlinkTargetParts.Parts parts =
                job.getSpec().flink != null
                        ? FlinkTargetParts.parts(
                                job,
                                deployments,
                                handle.reconcile(),
                                new FlinkTargetStatus(store, reporting, ns, name, clock),
                                toStatus,
                                handle.cached(),
                                scheduler,
                                rescaleTimeout(job),
                                clock)
                        : new FlinkTargetParts.Parts(
                                new RunnerHttpMetricsSource(address.apply(job), RUNNER_TIMEOUT),
                                toStatus);
        JobAutoscaler autoscaler =
                new JobAutoscaler(
                        JobAutoscaler.Settings.of(SpecSettings.values(job.getSpec().autoscaler)),
                        parts.bound(),
                        parts.source(),
                        parts.realizer(),
                        List.of(reporter),
                        new JobAutoscaler.Reporting(
                                registry,
                                key(job),
                                clock,
                                error ->
                                        LOG.warn(
                                                "StreamJob {}: autoscaler error: {}",
                                                key(job),
                                                error.toString())),
                        new ConfigMapHistoryStore(client, job));
        String key = key(job);
        ScheduledFuture<?> ticks =
                scheduler.scheduleWithFixedDelay(
                        () -> tick(key, autoscaler, handle),
                        0,
                        tick.toMillis(),
                        TimeUnit.MILLISECONDS);
        return new RunningAutoscaler(settings, autoscaler, ticks);
    }

    /**
     * spec.timeouts.rescale, else the operator's default: how long the executor waits for a changed
     * runner.
     */
    public Duration rescaleTimeout(StreamJob job) {
        String text = job.getSpec().timeouts == null ? null : job.getSpec().timeouts.rescale;
        return text == null ? rescaleTimeout : DurationText.parse("spec.timeouts.rescale", text);
    }

    /**
     * Samples the runner and maybe decides; a job gone from the informer cache stops its loop (no
     * API call). Errors are logged, never thrown (they would end the scheduled ticks).
     */
    private void tick(String key, JobAutoscaler autoscaler, JobHandle handle) {
        Optional<StreamJob> job = handle.cached().get();
        if (job.isEmpty()) {
            synchronized (this) {
                stop(key);
            }
            reporting.forget(key);
            return;
        }
        try {
            autoscaler.tick();
        } catch (RuntimeException e) {
            LOG.warn("StreamJob {}: cannot sample or decide now: {}", key, e.toString());
        }
    }

    private void stop(String key) {
        RunningAutoscaler loop = loops.remove(key);
        if (loop != null) {
            loop.ticks().cancel(false);
            loop.autoscaler().close();
        }
    }

    private static String key(StreamJob job) {
        return job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    }

    @Override
    public synchronized void close() {
        loops.keySet().forEach(this::stop);
        scheduler.shutdownNow();
    }
}
