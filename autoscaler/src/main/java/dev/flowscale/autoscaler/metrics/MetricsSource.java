package dev.flowscale.autoscaler.metrics;

/**
 * Reads a running job's topology and cumulative DS2 counters. Rates are not its business: the
 * windowing derives them from the differences between samples.
 */
public interface MetricsSource {

    /**
     * Takes one sample now.
     *
     * @throws dev.flowscale.autoscaler.metrics.CollectorException when the job cannot be reached or
     *     answers something unreadable; the message says which source and why
     */
    MetricsSample sample();

    /** Where the samples come from, for messages (e.g. a URL or "in-process job 'x'"). */
    String describe();
}
