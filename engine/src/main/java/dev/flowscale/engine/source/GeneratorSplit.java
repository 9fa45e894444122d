package dev.flowscale.engine.source;

/**
 * A generator source's position in one share of the sequence numbers: the numbers {@code next, next
 * + step, next + 2·step, ...} not yet emitted, and when the schedule started (wall clock, so that a
 * job that was down owes what fell due meanwhile).
 */
public record GeneratorSplit(long next, long step, long scheduleStartEpochMillis) {

    /** Records of this split below {@code due} (the schedule's total so far) not yet emitted. */
    long dueCount(long due) {
        return due > next ? (due - next - 1) / step + 1 : 0;
    }

    /** Two splits that together hold exactly this split's numbers. */
    GeneratorSplit[] halves() {
        return new GeneratorSplit[] {
            new GeneratorSplit(next, 2 * step, scheduleStartEpochMillis),
            new GeneratorSplit(next + step, 2 * step, scheduleStartEpochMillis)
        };
    }
}
