package dev.flowscale.policy.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One rescale read off a trajectory: the job went down at {@code startSecond} and ran again at
 * {@code target} from {@code restartSecond} (-1 while still down at the end). Reading rescales from
 * the job's state rather than from a policy's decisions judges every policy alike.
 */
record Rescale(long startSecond, long restartSecond, Map<String, Integer> target) {

    static List<Rescale> of(Trajectory trajectory) {
        List<Rescale> rescales = new ArrayList<>();
        long start = -1;
        for (Trajectory.Point p : trajectory.points()) {
            if (p.down() && start < 0) {
                start = p.second();
            } else if (!p.down() && start >= 0) {
                rescales.add(new Rescale(start, p.second(), p.parallelism()));
                start = -1;
            }
        }
        if (start >= 0) {
            rescales.add(new Rescale(start, -1, pendingTarget(trajectory, start)));
        }
        return rescales;
    }

    /** A rescale unfinished at the end: its target is the last decision's. */
    private static Map<String, Integer> pendingTarget(Trajectory trajectory, long start) {
        var scales = trajectory.scaleDecisions();
        return scales.isEmpty()
                ? trajectory.finalParallelism()
                : scales.get(scales.size() - 1).newParallelism();
    }
}
