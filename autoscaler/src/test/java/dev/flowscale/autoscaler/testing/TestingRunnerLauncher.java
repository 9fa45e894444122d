package dev.flowscale.autoscaler.testing;

import dev.flowscale.testsupport.Ports;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Records every start and stop and hands them to a real launcher, except the first {@code
 * neverReady} starts: those answer the URI of a port where nothing listens, a runner that never
 * becomes ready.
 */
public final class TestingRunnerLauncher implements RunnerLauncher {
    /** One call of {@link #start}. */
    public record Start(Map<String, Integer> parallelism, Path restoreFrom, URI runner) {}

    private final RunnerLauncher delegate;
    private final AtomicInteger neverReady;
    private final List<Start> starts = new CopyOnWriteArrayList<>();
    private final List<URI> stops = new CopyOnWriteArrayList<>();

    public TestingRunnerLauncher(RunnerLauncher delegate, int neverReady) {
        this.delegate = delegate;
        this.neverReady = new AtomicInteger(neverReady);
    }

    @Override
    public URI start(Map<String, Integer> parallelism, Path restoreFrom) {
        URI runner =
                neverReady.getAndDecrement() > 0
                        ? URI.create("http://127.0.0.1:" + Ports.free())
                        : delegate.start(parallelism, restoreFrom);
        starts.add(new Start(Map.copyOf(parallelism), restoreFrom, runner));
        return runner;
    }

    @Override
    public void stop(URI runner) {
        stops.add(runner);
        delegate.stop(runner);
    }

    public List<Start> starts() {
        return List.copyOf(starts);
    }

    public List<URI> stops() {
        return List.copyOf(stops);
    }
}
