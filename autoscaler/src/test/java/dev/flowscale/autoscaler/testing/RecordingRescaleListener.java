package dev.flowscale.autoscaler.testing;

import dev.flowscale.autoscaler.realizer.RescaleListener;
import dev.flowscale.autoscaler.realizer.RescaleReport;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every rescale report it is told about. */
public final class RecordingRescaleListener implements RescaleListener {
    private final List<RescaleReport> reports = new CopyOnWriteArrayList<>();

    @Override
    public void onRescale(RescaleReport report) {
        reports.add(report);
    }

    public List<RescaleReport> reports() {
        return List.copyOf(reports);
    }

    public RescaleReport last() {
        if (reports.isEmpty()) {
            throw new AssertionError("no rescale was reported");
        }
        return reports.get(reports.size() - 1);
    }
}
