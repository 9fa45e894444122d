package dev.flowscale.autoscaler.testing;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * Port to whatever starts job runners: a child process ({@link ProcessRunnerLauncher}), later a
 * Kubernetes Deployment. {@link HttpRunnerScalingRealizer} starts a runner at the new parallelism
 * from the savepoint the old one stopped with, and stops it again if it never runs.
 */
public interface RunnerLauncher {

    /**
     * Starts a runner of the job at {@code parallelism} (every operator) restored from {@code
     * restoreFrom} (null: without state) and returns the base URI of its JSON API. When it throws,
     * it has stopped whatever it started. It never deletes {@code restoreFrom}.
     */
    URI start(Map<String, Integer> parallelism, Path restoreFrom);

    /**
     * Stops a runner this launcher started (one that did not come up); leaves its snapshots alone.
     */
    void stop(URI runner);
}
