package dev.flowscale.engine.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.TimeDomain;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedTimers;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import dev.flowscale.engine.state.StateBackendConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timers on the RocksDB backend fire exactly once after each way a run restores them: a restart
 * from a checkpoint (the blocks of a copy of the store), a restore from a savepoint (the blocks of
 * the backend), and a hand-over rescale (stores copied and cut to the new key-group ranges). None
 * of them leaves the timers on the heap, so the timer queue must be rebuilt from RocksDB itself.
 */
class RocksDbTimersRestoreTest {
    private static final int KEY_GROUPS = 128;
    private static final String OPERATOR = "windows";
    private static final long NOW = 1_000;

    private record Fired(long time, Object key, TimeDomain domain) {}

    /** Every timer registered below and not deleted. */
    private static final List<Fired> DUE =
            List.of(
                    new Fired(100, "a", TimeDomain.EVENT_TIME),
                    new Fired(200, "a", TimeDomain.EVENT_TIME),
                    new Fired(150, "b", TimeDomain.EVENT_TIME),
                    new Fired(120, 7L, TimeDomain.EVENT_TIME),
                    new Fired(50, "c", TimeDomain.PROCESSING_TIME),
                    new Fired(70, 7L, TimeDomain.PROCESSING_TIME));

    @TempDir Path local;
    private final List<KeyedStateBackend> opened = new ArrayList<>();

    @AfterEach
    void close() {
        opened.forEach(KeyedStateBackend::close);
    }

    @Test
    void timersFireExactlyOnceAfterARestartFromACheckpoint() throws Exception {
        KeyedStateBackend before = withTimers(all());
        try (RocksDbKeyedStore checkpoint =
                before.store().checkpoints().copy(config(), "checkpoint")) {
            KeyedStateBackend after = restored(g -> InstanceStateFile.rocksDbBlock(checkpoint, g));
            assertFireExactlyOnce(List.of(after));
        }
    }

    @Test
    void timersFireExactlyOnceAfterARestoreFromASavepoint() throws Exception {
        KeyedStateBackend before = withTimers(all());
        KeyedStateBackend after = restored(g -> InstanceStateFile.keyGroupBlock(before, g));
        assertFireExactlyOnce(List.of(after));
    }

    /** Key group {@code keyGroup}'s block, as a snapshot file holds it. */
    @FunctionalInterface
    private interface Blocks {
        byte[] of(int keyGroup) throws Exception;
    }

    /** A new RocksDB backend over every key group, restored from {@code blocks} as a run is. */
    private KeyedStateBackend restored(Blocks blocks) throws Exception {
        KeyedStateBackend after = backend(all());
        for (int g = 0; g < KEY_GROUPS; g++) {
            KeyGroupBlocks.restoreDecoded(after, Map.of(g, KeyGroupBlocks.decode(blocks.of(g), g)));
        }
        return after;
    }

    @Test
    void timersFireExactlyOnceAfterAHandOverRescaleFromTwoInstancesToThree() throws Exception {
        List<HandOff> captured = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            KeyedStateBackend instance = withTimers(KeyGroups.rangeFor(i, KEY_GROUPS, 2));
            captured.add(
                    HandOff.capture(
                            OPERATOR, i, instance, new OperatorStateStore(OPERATOR), List.of()));
        }
        RestoredState.InstanceRestore[] targets = new RestoredState.InstanceRestore[3];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = new RestoredState.InstanceRestore();
        }
        RocksDbHandOver.prepare(OPERATOR, targets, captured, KEY_GROUPS, config());
        List<KeyedStateBackend> after = new ArrayList<>();
        for (int i = 0; i < targets.length; i++) {
            after.add(
                    track(
                            new KeyedStateBackend(
                                    OPERATOR,
                                    KEY_GROUPS,
                                    KeyGroups.rangeFor(i, KEY_GROUPS, 3),
                                    targets[i].preparedStore())));
        }
        assertFireExactlyOnce(after);
    }

    /**
     * Fires everything due on each backend, then again on a fresh set of timers over the same
     * backends (as a later restore would build): the first time fires every due timer once, the
     * second nothing.
     */
    private static void assertFireExactlyOnce(List<KeyedStateBackend> backends) throws Exception {
        assertThat(fireAll(backends)).containsExactlyInAnyOrderElementsOf(DUE);
        assertThat(fireAll(backends)).as("timers fired before fire no more").isEmpty();
    }

    private static List<Fired> fireAll(List<KeyedStateBackend> backends) throws Exception {
        List<Fired> fired = new ArrayList<>();
        for (KeyedStateBackend backend : backends) {
            KeyedTimers timers = new KeyedTimers(backend, () -> NOW);
            KeyedTimers.Firing record =
                    (time, domain) -> fired.add(new Fired(time, backend.currentKey(), domain));
            timers.advanceWatermark(Long.MAX_VALUE, record);
            timers.advanceProcessingTime(NOW, record);
            timers.advanceWatermark(Long.MAX_VALUE, record);
            timers.advanceProcessingTime(NOW, record);
        }
        return fired;
    }

    /**
     * A backend of {@code range} with the timers of {@link #DUE} that fall in it, and a deleted
     * one.
     */
    private KeyedStateBackend withTimers(KeyGroupRange range) {
        KeyedStateBackend backend = backend(range);
        KeyedTimers timers = new KeyedTimers(backend, () -> 0);
        for (Fired due : DUE) {
            if (range.contains(KeyGroups.keyGroupFor(due.key(), KEY_GROUPS))) {
                backend.setCurrentKey(due.key());
                if (due.domain() == TimeDomain.EVENT_TIME) {
                    timers.registerEventTimeTimer(due.time());
                    timers.registerEventTimeTimer(due.time() + 1_000_000);
                    timers.deleteEventTimeTimer(due.time() + 1_000_000);
                } else {
                    timers.registerProcessingTimeTimer(due.time());
                }
            }
        }
        return backend;
    }

    private KeyedStateBackend backend(KeyGroupRange range) {
        return track(
                new KeyedStateBackend(
                        OPERATOR, KEY_GROUPS, range, RocksDbKeyedStore.open(config(), OPERATOR)));
    }

    private KeyedStateBackend track(KeyedStateBackend backend) {
        opened.add(backend);
        return backend;
    }

    private StateBackendConfig config() {
        return StateBackendConfig.rocksDb().withLocalDir(local);
    }

    private static KeyGroupRange all() {
        return new KeyGroupRange(0, KEY_GROUPS - 1);
    }
}
