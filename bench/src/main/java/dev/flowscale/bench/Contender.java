package dev.flowscale.bench;

/** What runs a workload. */
enum Contender {
    FLOWSCALE_ON("flowscale, instrumented"),
    FLOWSCALE_OFF("flowscale, instrumentation off"),
    FLINK("Flink " + FlinkJobs.VERSION + " local");

    private final String label;

    Contender(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }
}
