package dev.flowscale.engine.runner;

import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.RunningJob;
import java.time.Duration;

/** Every control route of the runner API (docs/runner-api.md), served for one job. */
public final class RunnerRoutes {

    private RunnerRoutes() {}

    /**
     * Routes savepoint, stop-with-savepoint and in-place rescale on one serialized control thread,
     * and the latest snapshot beside the probes; returns the control API (to await a stop's
     * answer).
     */
    public static JobControlApi serveControl(
            MetricsHttpServer server, RunningJob job, Duration timeout) {
        JobControlApi control = new JobControlApi(job, timeout).serveOn(server);
        new RescaleApi(job, timeout).serveOn(server, control.executor());
        new LatestSnapshotApi(job).serveOn(server);
        return control;
    }
}
