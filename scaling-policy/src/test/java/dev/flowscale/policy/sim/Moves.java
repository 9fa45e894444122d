package dev.flowscale.policy.sim;

import java.util.ArrayList;
import java.util.List;

/** Directions of successive parallelism changes: +1 up, -1 down. */
final class Moves {

    private Moves() {}

    static List<Integer> of(List<Integer> parallelismHistory) {
        List<Integer> moves = new ArrayList<>();
        for (int i = 1; i < parallelismHistory.size(); i++) {
            moves.add(Integer.signum(parallelismHistory.get(i) - parallelismHistory.get(i - 1)));
        }
        return moves;
    }

    /** How often the direction reverses (up then down, or down then up). */
    static int reversals(List<Integer> parallelismHistory) {
        List<Integer> moves = of(parallelismHistory);
        int reversals = 0;
        for (int i = 1; i < moves.size(); i++) {
            reversals += moves.get(i).equals(moves.get(i - 1)) ? 0 : 1;
        }
        return reversals;
    }
}
