package dev.flowscale.engine.cli;

import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import java.io.PrintStream;
import java.util.Map;

/** Prints per-operator DS2 rates for the window since the previous call. */
final class LiveView {
    private final PrintStream out;
    private final long startNanos;
    private JobMetricsSnapshot previous;

    LiveView(PrintStream out, long startNanos) {
        this.out = out;
        this.startNanos = startNanos;
    }

    void print(JobMetricsSnapshot now) {
        Map<String, OperatorRates> rates = now.ratesSince(previous);
        previous = now;
        out.printf(
                "%n[%6.1fs] %-12s %3s %14s %14s %14s %6s %7s %10s%n",
                (now.timeNanos() - startNanos) / 1e9,
                "operator",
                "p",
                "observed in/s",
                "true proc/s",
                "true out/s",
                "util",
                "backpr",
                "backlog");
        rates.values().forEach(this::row);
        out.flush();
    }

    private void row(OperatorRates r) {
        out.printf(
                "          %-12s %3d %14s %14s %14s %5.0f%% %6.0f%% %10s%n",
                r.operatorId(),
                r.parallelism(),
                format(r.observedProcessingRate()),
                format(r.trueProcessingRate()),
                format(r.trueOutputRate()),
                100 * nanToZero(r.utilization()),
                100 * nanToZero(r.backpressureRatio()),
                r.backlog() == null ? "no signal" : Long.toString(r.backlog()));
    }

    /** Totals over the whole run. */
    void summary(JobMetricsSnapshot end) {
        out.printf(
                "%nSummary over %.1fs (rates averaged over the run):%n",
                (end.timeNanos() - startNanos) / 1e9);
        previous = null;
        print(end);
    }

    private static String format(double rate) {
        return Double.isNaN(rate) ? "-" : String.format("%,.0f", rate);
    }

    private static double nanToZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }
}
