package dev.flowscale.autoscaler.realizer;

/**
 * A rescale failed; {@link #report()} says how far it got and at which parallelism the job runs
 * now.
 */
public final class RescaleFailedException extends RealizeException {
    private final transient RescaleReport report;

    public RescaleFailedException(RescaleReport report, Throwable cause) {
        super(report.summary(), cause);
        this.report = report;
    }

    public RescaleReport report() {
        return report;
    }
}
