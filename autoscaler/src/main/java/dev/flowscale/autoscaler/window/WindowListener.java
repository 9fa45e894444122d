package dev.flowscale.autoscaler.window;

import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;

/** Told about every window the provider builds (e.g. to export its rates). */
@FunctionalInterface
public interface WindowListener {

    void onWindow(JobTopology topology, MetricsWindow window);
}
