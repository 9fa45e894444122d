package dev.flowscale.policy.api;

/**
 * What a source owes: the offered rate (records per second due by its schedule, or arriving in its
 * external log) over the window, and the backlog (records due but not yet emitted, e.g. Kafka lag)
 * at the end of the window. A source that cannot tell what it owes (a Kafka reader that does not
 * know its partitions' log ends yet, or cannot ask its brokers) has a null backlog: no lag signal,
 * which the policy reports and holds on, never reads as zero backlog. Null is the one encoding of
 * this unknown from the engine's source reader through the runner's counter record ({@code
 * MetricsView.InstanceCounts#backlog}) to here; a NaN backlog is a measurement the policy reports
 * as invalid. The offered rate is then not known either (NaN, as every rate that cannot be
 * computed), and is not read while there is no signal.
 */
public record SourceMetrics(double offeredRate, Double backlogRecords) {

    /** Whether the source reports its backlog (a lag signal). */
    public boolean hasBacklogSignal() {
        return backlogRecords != null;
    }
}
