package dev.flowscale.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.TimeDomain;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Timers of key groups that an instance keeps or is handed over in memory on a rescale (not read
 * from a snapshot file) fire when the watermark passes them, even if no record ever arrives again:
 * a window whose last record came before the rescale still fires.
 */
class KeyedTimersAfterHandOverTest {
    private static final int KEY_GROUPS = 128;
    private static final KeyGroupRange ALL = new KeyGroupRange(0, KEY_GROUPS - 1);

    private record Fired(long time, Object key, TimeDomain domain) {}

    @Test
    void eventTimeTimersOfKeyGroupsHandedOverAsACopyFireWithoutANewRecord() throws Exception {
        KeyedStateBackend before = backendWithTimers();
        KeyedStateBackend after = new KeyedStateBackend("windows", KEY_GROUPS, ALL);
        ALL.forEach(group -> after.adoptCopy(before, group));

        assertThat(fireAll(after)).containsExactly(new Fired(100, "a", TimeDomain.EVENT_TIME));
    }

    @Test
    void processingTimeTimersOfKeyGroupsHandedOverAsACopyFireWithoutANewRecord() throws Exception {
        KeyedStateBackend before = new KeyedStateBackend("windows", KEY_GROUPS, ALL);
        before.setCurrentKey("b");
        new KeyedTimers(before, () -> 0).registerProcessingTimeTimer(50);
        KeyedStateBackend after = new KeyedStateBackend("windows", KEY_GROUPS, ALL);
        ALL.forEach(group -> after.adoptCopy(before, group));

        List<Fired> fired = new ArrayList<>();
        KeyedTimers timers = new KeyedTimers(after, () -> 60);
        assertThat(timers.nextProcessingTimer()).isEqualTo(50);
        timers.advanceProcessingTime(60, (t, d) -> fired.add(new Fired(t, after.currentKey(), d)));
        assertThat(fired).containsExactly(new Fired(50, "b", TimeDomain.PROCESSING_TIME));
    }

    private static KeyedStateBackend backendWithTimers() {
        KeyedStateBackend backend = new KeyedStateBackend("windows", KEY_GROUPS, ALL);
        backend.setCurrentKey("a");
        new KeyedTimers(backend, () -> 0).registerEventTimeTimer(100);
        return backend;
    }

    private static List<Fired> fireAll(KeyedStateBackend backend) throws Exception {
        List<Fired> fired = new ArrayList<>();
        new KeyedTimers(backend, () -> 0)
                .advanceWatermark(
                        Long.MAX_VALUE, (t, d) -> fired.add(new Fired(t, backend.currentKey(), d)));
        return fired;
    }
}
