package dev.flowscale.policy.api;

/**
 * What a source owes: the offered rate (records per second due by its schedule, or arriving in its
 * external log) over the window, and the backlog (records due but not yet emitted, e.g. Kafka lag)
 * at the end of the window. A source that cannot tell what it owes (a Kafka reader that does not
 * know its partitions' log ends yet, or cannot ask its brokers) reports NaN for both: no lag
 * signal, which the policy reports and holds on, never reads as zero backlog. NaN is the policy's
 * one encoding of a value not known (as {@link OperatorMetrics#UNKNOWN_CORE_WAIT}); the collector
 * turns the runner contract's null backlog into it.
 */
public record SourceMetrics(double offeredRate, double backlogRecords) {

    /** Whether the source reports its backlog (a lag signal); false while it is NaN. */
    public boolean hasBacklogSignal() {
        return !Double.isNaN(backlogRecords);
    }
}
