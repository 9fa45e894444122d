package dev.flowscale.policy.api;

/**
 * What a source owes: the offered rate (records per second due by its schedule, or arriving in its
 * external log) over the window, and the backlog (records due but not yet emitted, e.g. Kafka lag)
 * at the end of the window.
 */
public record SourceMetrics(double offeredRate, double backlogRecords) {}
