package dev.flowscale.autoscaler.window;

import dev.flowscale.autoscaler.metrics.CollectorException;
import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsProvider;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The policy's {@link MetricsProvider} over a {@link MetricsSource}. Each {@link #poll()} takes a
 * sample; the current window runs from the newest kept sample at least one window length older than
 * the latest to the latest, and its rates are differences of cumulative counters. Samples taken in
 * warm-up (an instance has run less than the warm-up) are dropped; a new run id, a changed
 * parallelism or counters going backwards mean a restart, and older samples are forgotten so that
 * no window spans two runs. Operators with an instance that did not report are left out of the
 * window, so the policy blocks on missing metrics; while the source fails there is no window at
 * all. {@link #status()} says why a window is incomplete or absent.
 */
public final class WindowedMetricsProvider implements MetricsProvider {
    private final MetricsSource source;
    private final WindowSettings settings;
    private final List<WindowListener> listeners;
    private final Deque<MetricsSample> samples = new ArrayDeque<>();
    private JobTopology topology;
    private MetricsWindow window;
    private WindowStatus status =
            WindowStatus.incomplete("no sample taken yet; call poll()", Optional.empty());

    public WindowedMetricsProvider(
            MetricsSource source, WindowSettings settings, List<WindowListener> listeners) {
        this.source = Objects.requireNonNull(source, "windowed metrics provider: source");
        this.settings = Objects.requireNonNull(settings, "windowed metrics provider: settings");
        this.listeners = List.copyOf(listeners);
    }

    /** Takes one sample and updates the current window; never throws. Returns the new status. */
    public WindowStatus poll() {
        MetricsSample sample;
        try {
            sample = source.sample();
        } catch (RuntimeException e) {
            return failed("metrics source " + source.describe() + " failed: " + e.getMessage());
        }
        return add(sample);
    }

    /** Adds a sample taken elsewhere (e.g. by a test or another poller) and updates the window. */
    public WindowStatus add(MetricsSample sample) {
        Optional<MetricsWindow> built;
        synchronized (this) {
            built = update(sample);
        }
        built.ifPresent(w -> listeners.forEach(l -> l.onWindow(sample.topology(), w)));
        return status();
    }

    private Optional<MetricsWindow> update(MetricsSample sample) {
        topology = sample.topology();
        window = null;
        Optional<String> restart =
                samples.isEmpty() ? Optional.empty() : restart(samples.peekLast(), sample);
        restart.ifPresent(why -> samples.clear());
        Optional<String> warming = warmingUp(sample);
        if (warming.isPresent()) {
            status =
                    WindowStatus.incomplete(
                            prefix(restart) + warming.get(), Optional.of(sample.time()));
            return Optional.empty();
        }
        samples.addLast(sample);
        Optional<MetricsSample> start = windowStart(sample.time());
        if (start.isEmpty()) {
            status =
                    WindowStatus.incomplete(
                            prefix(restart) + collecting(sample.time()),
                            Optional.of(sample.time()));
            return Optional.empty();
        }
        WindowRates.Result result = WindowRates.between(start.get(), sample);
        window = result.window();
        status =
                result.problems().isEmpty()
                        ? WindowStatus.complete(sample.time())
                        : WindowStatus.incomplete(result.problems(), Optional.of(sample.time()));
        return Optional.of(window);
    }

    private static Optional<String> restart(MetricsSample last, MetricsSample now) {
        if (!last.runId().equals(now.runId())) {
            return Optional.of(
                    "the job restarted (run " + last.runId() + " -> " + now.runId() + ")");
        }
        if (!last.topology().parallelism().equals(now.topology().parallelism())) {
            return Optional.of("the job was rescaled to " + now.topology().parallelism());
        }
        for (InstanceCounts c : now.instances()) {
            Optional<InstanceCounts> before = last.instance(c.operatorId(), c.instance());
            if (before.isPresent() && Counters.wentBackwards(c, before.get())) {
                return Optional.of(
                        "the counters of operator '"
                                + c.operatorId()
                                + "' instance "
                                + c.instance()
                                + " went backwards: the job restarted");
            }
        }
        return Optional.empty();
    }

    private Optional<String> warmingUp(MetricsSample sample) {
        double warmUp = settings.warmUp().toNanos() / 1e9;
        return sample.instances().stream()
                .filter(c -> !c.finished() && Counters.seconds(c.observedNanos()) < warmUp)
                .findFirst()
                .map(
                        c ->
                                String.format(
                                        "warming up: operator '%s' instance %d has run %.1f s of the %.1f s warm-up;"
                                                + " its sample is dropped",
                                        c.operatorId(),
                                        c.instance(),
                                        Counters.seconds(c.observedNanos()),
                                        warmUp));
    }

    /** The newest sample at least a window length before {@code end}; older ones are discarded. */
    private Optional<MetricsSample> windowStart(Instant end) {
        Instant latestStart = end.minus(settings.length());
        MetricsSample start = null;
        for (MetricsSample s : samples) {
            if (!s.time().isAfter(latestStart)) {
                start = s;
            }
        }
        while (start != null && samples.peekFirst() != start) {
            samples.removeFirst();
        }
        return Optional.ofNullable(start);
    }

    private String collecting(Instant end) {
        Duration have = Duration.between(samples.peekFirst().time(), end);
        return "collecting: "
                + have.toMillis() / 1000.0
                + " s of samples, the window needs "
                + settings.length().toMillis() / 1000.0
                + " s";
    }

    private static String prefix(Optional<String> restart) {
        return restart.map(why -> why + "; earlier samples dropped; ").orElse("");
    }

    private synchronized WindowStatus failed(String reason) {
        window = null;
        status = WindowStatus.incomplete(reason, status.lastSample());
        return status;
    }

    /** The job as last sampled; samples once if nothing was sampled yet. */
    @Override
    public JobTopology topology() {
        synchronized (this) {
            if (topology != null) {
                return topology;
            }
        }
        poll();
        synchronized (this) {
            if (topology == null) {
                throw new CollectorException("no topology: " + String.join("; ", status.reasons()));
            }
            return topology;
        }
    }

    /**
     * The window over the latest sample; empty while warming up, collecting or the source fails.
     */
    @Override
    public synchronized Optional<MetricsWindow> currentWindow() {
        return Optional.ofNullable(window);
    }

    public synchronized WindowStatus status() {
        return status;
    }
}
