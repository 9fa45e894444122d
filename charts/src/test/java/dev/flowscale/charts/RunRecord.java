package dev.flowscale.charts;

import dev.flowscale.autoscaler.realizer.RescaleListener;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import dev.flowscale.policy.api.DecisionListener;
import dev.flowscale.policy.api.ScalingDecision;
import java.util.ArrayList;
import java.util.List;

/** What the controller decided and which rescales happened, as its listeners were told. */
final class RunRecord implements DecisionListener, RescaleListener {
    private final List<ScalingDecision> decisions = new ArrayList<>();
    private final List<RescaleReport> rescales = new ArrayList<>();

    @Override
    public synchronized void onDecision(ScalingDecision decision) {
        decisions.add(decision);
    }

    @Override
    public synchronized void onRescale(RescaleReport report) {
        rescales.add(report);
        System.out.println("DashboardQueriesIT: " + report.summary());
    }

    synchronized List<ScalingDecision> scaleDecisions() {
        return decisions.stream().filter(ScalingDecision::isScale).toList();
    }

    synchronized List<ScalingDecision> decisions() {
        return List.copyOf(decisions);
    }

    synchronized List<RescaleReport> rescales() {
        return List.copyOf(rescales);
    }
}
