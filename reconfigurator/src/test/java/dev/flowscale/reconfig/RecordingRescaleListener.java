package dev.flowscale.reconfig;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every rescale report it is told about. */
final class RecordingRescaleListener implements RescaleListener {
    private final List<RescaleReport> reports = new CopyOnWriteArrayList<>();

    @Override
    public void onRescale(RescaleReport report) {
        reports.add(report);
    }

    List<RescaleReport> reports() {
        return List.copyOf(reports);
    }

    RescaleReport last() {
        if (reports.isEmpty()) {
            throw new AssertionError("no rescale was reported");
        }
        return reports.get(reports.size() - 1);
    }
}
