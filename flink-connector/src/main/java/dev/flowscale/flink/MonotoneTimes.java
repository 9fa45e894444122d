package dev.flowscale.flink;

import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps each subtask's accumulated busy, idle and back-pressured times from going backwards within
 * a run. Flink derives a task's busy time from the wall clock minus its idle and back-pressured
 * times, counting the period under way; read while a back-pressured period is open and again after
 * it closed, the busy time can come out lower (seen on a heavily back-pressured source). The window
 * takes counters that go backwards for a restart and starts over, so such a source would never let
 * a window complete. A time lower than the last one read is therefore held at the last one, the
 * error bounded by one open period. Records counters are left as they are: a restart at the same
 * parallelism still shows as records going backwards, and then the held times are forgotten.
 */
final class MonotoneTimes {
    private final Map<String, InstanceCounts> last = new HashMap<>();
    private String run = "";

    /** {@code counters} of run {@code runId}, times held at their last values where they fell. */
    synchronized List<InstanceCounts> apply(String runId, List<InstanceCounts> counters) {
        if (!runId.equals(run)) {
            last.clear();
            run = runId;
        }
        List<InstanceCounts> result = new ArrayList<>(counters.size());
        for (InstanceCounts now : counters) {
            String key = now.operatorId() + "#" + now.instance();
            InstanceCounts before = last.get(key);
            InstanceCounts held =
                    before == null || restarted(before, now) ? now : held(before, now);
            last.put(key, held);
            result.add(held);
        }
        return result;
    }

    private static boolean restarted(InstanceCounts before, InstanceCounts now) {
        return now.recordsIn() < before.recordsIn() || now.recordsOut() < before.recordsOut();
    }

    private static InstanceCounts held(InstanceCounts before, InstanceCounts now) {
        return Counters.withTimes(
                now,
                Math.max(before.usefulNanos(), now.usefulNanos()),
                Math.max(before.waitInputNanos(), now.waitInputNanos()),
                Math.max(before.backpressureNanos(), now.backpressureNanos()));
    }
}
