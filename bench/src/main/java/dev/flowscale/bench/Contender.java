package dev.flowscale.bench;

/** What runs a workload. */
enum Contender {
    FLOWSCALE_ON("flowscale, instrumented"),
    FLOWSCALE_OFF("flowscale, instrumentation off"),
    /** Instrumented, with the runner's Prometheus registry: the baseline of the next. */
    FLOWSCALE_METERED("flowscale, instrumented, metered"),
    /**
     * As FLOWSCALE_METERED, plus latency markers every 10 ms (100 times as often as
     * --latency-interval 1s).
     */
    FLOWSCALE_MARKERS("flowscale, metered, markers every 10 ms"),
    FLINK("Flink " + FlinkJobs.VERSION + " local"),
    /** The workload as one loop on one thread, no engine: the floor of CPU per record. */
    FUSED("fused loop, one thread");

    private final String label;

    Contender(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }
}
