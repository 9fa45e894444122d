package dev.flowscale.cli;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.ScalingDecision;
import java.io.PrintStream;
import java.util.Map;

/**
 * The terminal view of a run: every few seconds the operators' parallelism, true processing rate,
 * backpressure and source backlog; each decision with its target rates, utilization and reasons;
 * each rescale with its downtime.
 */
final class LiveConsole implements RunListener {
    private final PrintStream out;
    private final double everySeconds;
    private JobMetricsSnapshot previous;
    private double lastPrint = -1e9;

    LiveConsole(PrintStream out, double everySeconds) {
        this.out = out;
        this.everySeconds = everySeconds;
    }

    @Override
    public synchronized void onSample(double t, JobMetricsSnapshot snapshot) {
        if (t - lastPrint < everySeconds) {
            return;
        }
        Map<String, OperatorRates> rates = snapshot.ratesSince(previous);
        previous = snapshot;
        lastPrint = t;
        out.printf(
                "%n[%6.1fs] %-10s %3s %12s %12s %6s %7s %9s%n",
                t, "operator", "p", "in/s", "true proc/s", "util", "backpr", "backlog");
        rates.values()
                .forEach(
                        r ->
                                out.printf(
                                        "          %-10s %3d %12s %12s %5.0f%% %6.0f%% %9s%n",
                                        r.operatorId(),
                                        r.parallelism(),
                                        rate(r.observedProcessingRate()),
                                        rate(r.trueProcessingRate()),
                                        100 * zero(r.utilization()),
                                        100 * zero(r.backpressureRatio()),
                                        backlog(r.backlog())));
        out.flush();
    }

    @Override
    public synchronized void onDecision(double t, ScalingDecision decision) {
        out.printf(
                "%n[%6.1fs] DECISION %s%s%n",
                t, decision.outcome(), decision.blockReason().map(r -> " (" + r + ")").orElse(""));
        decision.reasons().forEach(r -> out.println("          " + r));
        decision.blockReason()
                .map(r -> ReportText.why(r.name()))
                .filter(w -> !w.isEmpty())
                .ifPresent(w -> out.println("          (" + w + ")"));
        for (OperatorDecision op : decision.operators().values()) {
            out.printf(
                    "          %-10s %3d -> %-3d target %10s/s  capacity %9s/s per instance  util %4.0f%%%s%n",
                    op.operatorId(),
                    op.currentParallelism(),
                    op.newParallelism(),
                    rate(op.targetInputRate()),
                    rate(op.capacityPerInstance()),
                    100 * zero(op.utilization()),
                    op.catchUpShare() > 0
                            ? String.format("  catch-up %.0f%%", 100 * op.catchUpShare())
                            : "");
            if (op.changes() || decision.outcome() == Outcome.SCALE) {
                op.reasons().forEach(r -> out.println("                       " + r));
            }
        }
        out.flush();
    }

    @Override
    public synchronized void onRescale(double t, RescaleReport report) {
        out.printf(
                "%n[%6.1fs] %s%n",
                t,
                report.succeeded()
                        ? "RESCALED " + report.summary()
                        : "RESCALE FAILED " + report.summary());
        previous = null;
        out.flush();
    }

    static String rate(double r) {
        return Double.isNaN(r) || Double.isInfinite(r) ? "-" : String.format("%,.0f", r);
    }

    private static double zero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    /** Blank for none owed; "no signal" for a source that cannot tell (never shown as 0). */
    private static String backlog(Long records) {
        return records == null ? "no signal" : records == 0 ? "" : Long.toString(records);
    }
}
