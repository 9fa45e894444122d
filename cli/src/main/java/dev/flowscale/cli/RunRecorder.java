package dev.flowscale.cli;

import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.engine.metrics.JobMetricsSnapshot;
import dev.flowscale.engine.metrics.OperatorRates;
import dev.flowscale.policy.api.ScalingDecision;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Keeps the time series and events of a run for the summary and the HTML report. */
final class RunRecorder implements RunListener {

    /**
     * One sample: per operator parallelism, observed input rate and backpressure; source backlog.
     */
    record Sample(double t, Map<String, OperatorRates> operators) {}

    /** A decision or a rescale at a time. */
    record Event(double t, String kind, String title, List<String> details) {}

    /** DS2's target input rate per operator (sources: their target rate) at a decision. */
    record Target(double t, Map<String, Double> rates) {}

    private final List<Sample> samples = new ArrayList<>();
    private final List<Target> targets = new ArrayList<>();
    private final List<Event> events = new ArrayList<>();
    private final List<ScalingDecision> decisions = new ArrayList<>();
    private final List<RescaleReport> rescales = new ArrayList<>();
    private JobMetricsSnapshot previous;

    @Override
    public synchronized void onSample(double t, JobMetricsSnapshot snapshot) {
        if (previous != null && previous.runId().equals(snapshot.runId())) {
            samples.add(new Sample(t, new LinkedHashMap<>(snapshot.ratesSince(previous))));
        }
        previous = snapshot;
    }

    @Override
    public synchronized void onDecision(double t, ScalingDecision decision) {
        decisions.add(decision);
        Map<String, Double> rates = new LinkedHashMap<>();
        decision.operators()
                .values()
                .forEach(op -> rates.put(op.operatorId(), op.targetInputRate()));
        if (!rates.isEmpty()) {
            targets.add(new Target(t, rates));
        }
        List<String> details = new ArrayList<>(decision.reasons());
        decision.operators()
                .values()
                .forEach(
                        op ->
                                details.add(
                                        op.operatorId()
                                                + ": "
                                                + op.currentParallelism()
                                                + " -> "
                                                + op.newParallelism()
                                                + " (target "
                                                + LiveConsole.rate(op.targetInputRate())
                                                + "/s, capacity "
                                                + LiveConsole.rate(op.capacityPerInstance())
                                                + "/s per instance) "
                                                + String.join("; ", op.reasons())));
        events.add(
                new Event(
                        t,
                        "decision",
                        decision.outcome() + decision.blockReason().map(r -> " " + r).orElse(""),
                        details));
    }

    @Override
    public synchronized void onRescale(double t, RescaleReport report) {
        rescales.add(report);
        events.add(
                new Event(
                        t,
                        "rescale",
                        report.succeeded() ? "rescaled " + report.changes() : "rescale failed",
                        List.of(report.summary())));
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    synchronized List<Target> targets() {
        return List.copyOf(targets);
    }

    synchronized List<Event> events() {
        return List.copyOf(events);
    }

    synchronized List<ScalingDecision> decisions() {
        return List.copyOf(decisions);
    }

    synchronized List<RescaleReport> rescales() {
        return List.copyOf(rescales);
    }
}
