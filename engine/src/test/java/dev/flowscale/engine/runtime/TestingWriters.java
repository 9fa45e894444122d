package dev.flowscale.engine.runtime;

import dev.flowscale.engine.graph.Partitioning;

/** Record writers for tests that drive one task's output by hand. */
final class TestingWriters {
    private TestingWriters() {}

    /** A forward writer into channel 0 of {@code gate}. */
    static RecordWriter forward(
            InputGate gate, int batchSize, PhaseClock clock, boolean timestamped) {
        return new RecordWriter(
                Partitioning.FORWARD,
                null,
                128,
                new InputGate[] {gate},
                new int[] {0},
                batchSize,
                clock,
                timestamped);
    }
}
