package dev.flowscale.operator;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The autoscaler loops of all StreamJobs in this operator: one {@link JobAutoscaler} per job that
 * runs (phase Running or Rescaling, mode auto or recommend, not suspended), ticked on a shared
 * scheduler. A loop is rebuilt when the autoscaler settings change (the job keeps running) and
 * stops when the job is deleted, suspended, failed or its mode is off, never in mid-rescale.
 */
public final class JobAutoscalers implements AutoscalerLoops, AutoCloseable {
    private final KubernetesClient client;
    private final JobStatusStore store;
    private final RunnerCluster cluster;
    private final JobEvents events;
    private final MeterRegistry registry;
    private final Function<StreamJob, URI> address;
    private final Duration tick;
    private final Duration rescaleTimeout;
    private final Clock clock;
    private final Map<String, Loop> loops = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "flowscale-autoscalers");
        t.setDaemon(true);
        return t;
    });

    private record Loop(String settings, JobAutoscaler autoscaler, ScheduledFuture<?> ticks) {
    }

    /**
     * @param address        the runner API of a job ({@link KubernetesRunnerLauncher#serviceAddress} in a cluster)
     * @param tick           how often each runner is sampled
     * @param rescaleTimeout longest wait for a savepoint and for a new runner to run before rolling back
     */
    public JobAutoscalers(KubernetesClient client, RunnerCluster cluster, JobEvents events, MeterRegistry registry,
                          Function<StreamJob, URI> address, Duration tick, Duration rescaleTimeout, Clock clock) {
        this.client = client;
        this.store = new JobStatusStore(client);
        this.cluster = cluster;
        this.events = events;
        this.registry = registry;
        this.address = address;
        this.tick = tick;
        this.rescaleTimeout = rescaleTimeout;
        this.clock = clock;
    }

    /** The status writer these loops and the reconciler share (see {@link JobStatusStore}). */
    JobStatusStore store() {
        return store;
    }

    @Override
    public synchronized void reconcile(StreamJob job) {
        String key = key(job);
        String settings = job.getMetadata().getUid() + Serialization.asJson(job.getSpec().autoscaler)
                + Serialization.asJson(job.getSpec().timeouts);
        Loop current = loops.get(key);
        if (current != null && current.autoscaler().rescaling()) {
            return;
        }
        if (current != null && (!wanted(job) || !current.settings().equals(settings))) {
            stop(key);
        }
        if (wanted(job) && !loops.containsKey(key)) {
            loops.put(key, start(job, settings));
        }
    }

    @Override
    public boolean rescaling(StreamJob job) {
        Loop loop = loops.get(key(job));
        return loop != null && loop.autoscaler().rescaling();
    }

    /** Whether the job has a loop now (for tests and health). */
    public boolean running(String namespace, String name) {
        return loops.containsKey(namespace + "/" + name);
    }

    private static boolean wanted(StreamJob job) {
        JobPhase phase = job.getStatus() == null ? null : job.getStatus().phase;
        return (phase == JobPhase.Running || phase == JobPhase.Rescaling) && !job.getSpec().suspend
                && job.getSpec().autoscaler.mode != AutoscalerMode.OFF;
    }

    private Loop start(StreamJob job, String settings) {
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        JobStatusReporter reporter = new JobStatusReporter(store, events, ns, name, clock);
        KubernetesRunnerLauncher launcher = new KubernetesRunnerLauncher(store, cluster, ns, name, address, clock);
        JobAutoscaler autoscaler = new JobAutoscaler(key(job), job.getSpec().autoscaler, address.apply(job), launcher,
                reporter, registry, rescaleTimeout(job), clock);
        ScheduledFuture<?> ticks = scheduler.scheduleWithFixedDelay(() -> tick(key(job), autoscaler), 0,
                tick.toMillis(), TimeUnit.MILLISECONDS);
        return new Loop(settings, autoscaler, ticks);
    }

    /** spec.timeouts.rescale, else the operator's default. */
    private Duration rescaleTimeout(StreamJob job) {
        String text = job.getSpec().timeouts == null ? null : job.getSpec().timeouts.rescale;
        return text == null ? rescaleTimeout : DurationText.parse("spec.timeouts.rescale", text);
    }

    private void tick(String key, JobAutoscaler autoscaler) {
        String[] nsName = key.split("/", 2);
        if (client.resources(StreamJob.class).inNamespace(nsName[0]).withName(nsName[1]).get() == null) {
            synchronized (this) {
                stop(key);
            }
            return;
        }
        autoscaler.tick();
    }

    private void stop(String key) {
        Loop loop = loops.remove(key);
        if (loop != null) {
            loop.ticks().cancel(false);
            try {
                loop.autoscaler().close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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
