package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.ScalingDecision;
import java.util.List;
import java.util.function.Predicate;

/**
 * The trailing decisions taken at the current load, found once for all operators of a decision:
 * walked back from the latest only as far as some operator's streak reaches, never twice.
 */
final class SameLoadRun {

    private final List<ScalingDecision> decisions;
    private final Predicate<ScalingDecision> sameLoad;
    private int cursor; // every decision from here on was taken at the current load
    private boolean ended; // the decision before the cursor was not

    SameLoadRun(List<ScalingDecision> decisions, Predicate<ScalingDecision> sameLoad) {
        this.decisions = decisions;
        this.sameLoad = sameLoad;
        this.cursor = decisions.size();
    }

    /**
     * The position of the first of the trailing decisions taken at the current load, but not before
     * {@code floor}.
     */
    int start(int floor) {
        while (!ended && cursor > floor) {
            if (sameLoad.test(decisions.get(cursor - 1))) {
                cursor--;
            } else {
                ended = true;
            }
        }
        return Math.max(cursor, floor);
    }
}
