package dev.flowscale.charts;

import dev.flowscale.autoscaler.testing.RunnerLauncher;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Starts runners through another launcher and makes each new runner, with the controller,
 * Prometheus' targets.
 */
final class AnnouncingLauncher implements RunnerLauncher {
    private final RunnerLauncher launcher;
    private final ScrapeTargets targets;
    private final URI controller;

    AnnouncingLauncher(RunnerLauncher launcher, ScrapeTargets targets, URI controller) {
        this.launcher = launcher;
        this.targets = targets;
        this.controller = controller;
    }

    @Override
    public URI start(Map<String, Integer> parallelism, Path restoreFrom) {
        URI runner = launcher.start(parallelism, restoreFrom);
        targets.set(List.of(controller, runner));
        return runner;
    }

    @Override
    public void stop(URI runner) {
        launcher.stop(runner);
    }
}
