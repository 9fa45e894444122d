package dev.flowscale.engine.testing;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.api.KeySelector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.OutputTag;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.engine.checkpoint.InstanceStateFile;
import dev.flowscale.engine.runtime.KeyedFunctionDriver;
import dev.flowscale.engine.runtime.UserContexts;
import dev.flowscale.engine.state.KeyGroupRange;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.StateTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Drives one instance of a user's {@link KeyedProcessFunction} on the calling thread, as the
 * engine's task would: the same keyed state backend and state objects, the same key groups, the
 * same snapshot encoding. Feed records, read the output and each key's state, take a {@link
 * #snapshot()} and restore it, also into instances of another parallelism, which take only the key
 * groups they own (as a rescale does). Give records event times, advance the watermark and the
 * processing time by hand, and the function's timers fire as in a job; timers are keyed state, so
 * they are in the snapshot and follow their key groups into restored instances.
 *
 * <pre>{@code
 * try (var h = KeyedFunctionHarness.of(CountPerPage::new, (Click c) -> c.page()).open()) {
 *     h.processElement(new Click("u1", "/home"));
 *     assertThat(h.output()).containsExactly(new PageCount("/home", 1));
 *     assertThat(h.valueState(CountPerPage.COUNT, "/home")).isEqualTo(1L);
 * }
 * }</pre>
 *
 * @param <K> the key type
 * @param <I> the input record type
 * @param <O> the output record type
 */
public final class KeyedFunctionHarness<K, I, O> implements AutoCloseable {
    private final Setup<K, I, O> setup;
    private final KeyedStateBackend backend;
    private final OperatorStateStore store;
    private final KeyedFunctionDriver<K, I, O> driver;
    private final List<O> output = new ArrayList<>();
    private final Collector<O> collector = output::add;
    private final Map<String, List<Object>> sideOutputs = new HashMap<>();
    private long timestamp = Long.MIN_VALUE;
    private long processingTime;
    private long watermark = Long.MIN_VALUE;

    private KeyedFunctionHarness(Setup<K, I, O> setup, List<HarnessSnapshot> restoreFrom)
            throws Exception {
        this.setup = setup;
        KeyGroupRange range =
                KeyGroups.rangeFor(setup.instanceIndex, setup.keyGroups, setup.parallelism);
        this.backend = new KeyedStateBackend(setup.operatorId, setup.keyGroups, range);
        this.store = new OperatorStateStore(setup.operatorId);
        HarnessRestore.into(backend, store, restoreFrom, setup.instanceIndex, setup.parallelism);
        @SuppressWarnings("unchecked")
        KeyedProcessFunction<K, I, O> function =
                (KeyedProcessFunction<K, I, O>) setup.factory.get();
        this.driver =
                new KeyedFunctionDriver<>(
                        function,
                        backend,
                        () -> processingTime,
                        () -> timestamp,
                        time -> {},
                        (tag, value) ->
                                sideOutputs
                                        .computeIfAbsent(tag.id(), t -> new ArrayList<>())
                                        .add(value));
        driver.open(
                UserContexts.keyed(
                        "harness",
                        setup.operatorId,
                        setup.instanceIndex,
                        setup.parallelism,
                        backend,
                        store));
    }

    /**
     * A harness for the function objects {@code factory} makes, keyed as {@code keyBy(keySelector)}
     * would.
     */
    public static <K, I, O> Setup<K, I, O> of(
            Supplier<? extends KeyedProcessFunction<K, ? super I, O>> factory,
            KeySelector<? super I, K> keySelector) {
        return new Setup<>(factory, keySelector);
    }

    /**
     * Processes one record as the task would: sets its key as the current key, then calls the
     * function.
     */
    public void processElement(I record) throws Exception {
        processElement(record, Long.MIN_VALUE);
    }

    /** Processes one record with an event time, as a job with a watermark strategy would. */
    public void processElement(I record, long eventTime) throws Exception {
        backend.setCurrentKey(setup.keySelector.getKey(record));
        timestamp = eventTime;
        driver.processElement(record, collector);
    }

    /**
     * Advances the watermark to {@code newWatermark} (as if every input had), firing the event-time
     * timers it reaches in time order; a watermark never goes back.
     */
    public void processWatermark(long newWatermark) throws Exception {
        if (newWatermark > watermark) {
            watermark = newWatermark;
            driver.advanceWatermark(newWatermark, collector);
        }
    }

    /** Sets the wall clock the function sees, firing the processing-time timers due by then. */
    public void setProcessingTime(long epochMillis) throws Exception {
        processingTime = epochMillis;
        driver.advanceProcessingTime(epochMillis, collector);
    }

    /** The watermark the function sees. */
    public long currentWatermark() {
        return watermark;
    }

    @SafeVarargs
    public final void processElements(I... records) throws Exception {
        for (I record : records) {
            processElement(record);
        }
    }

    /** Everything the function emitted so far, in order. */
    public List<O> output() {
        return List.copyOf(output);
    }

    /** What the function emitted to side output {@code tag} so far, in order. */
    public <X> List<X> sideOutput(OutputTag<X> tag) {
        return sideOutputs.getOrDefault(tag.id(), List.of()).stream()
                .map(tag.type()::cast)
                .toList();
    }

    /** The output so far, which is then cleared. */
    public List<O> takeOutput() {
        List<O> taken = output();
        output.clear();
        return taken;
    }

    /** A key's value in a value state; null if it has none. */
    @SuppressWarnings("unchecked")
    public <T> T valueState(StateDescriptor<T> descriptor, K key) {
        return (T) entry(descriptor, key);
    }

    /** A key's elements in a list state; empty if it has none. */
    @SuppressWarnings("unchecked")
    public <T> List<T> listState(StateDescriptor<T> descriptor, K key) {
        Object list = entry(descriptor, key);
        return list == null ? List.of() : List.copyOf((List<T>) list);
    }

    /** A key's entries in a map state; empty if it has none. */
    @SuppressWarnings("unchecked")
    public <MK, V> Map<MK, V> mapState(StateDescriptor<V> descriptor, K key) {
        Object map = entry(descriptor, key);
        return map == null ? Map.of() : Map.copyOf((Map<MK, V>) map);
    }

    /** The keys that have an entry in a state, in no particular order. */
    @SuppressWarnings("unchecked")
    public Set<K> keys(StateDescriptor<?> descriptor) {
        StateTable table = backend.table(descriptor);
        Set<K> keys = new LinkedHashSet<>();
        for (int i = 0; i < table.groupCount(); i++) {
            table.group(i).keySet().forEach(k -> keys.add((K) k));
        }
        return keys;
    }

    /**
     * Whether this instance owns the key's key group (a record with another key would be refused).
     */
    public boolean owns(K key) {
        return backend.keyGroupRange().contains(KeyGroups.keyGroupFor(key, setup.keyGroups));
    }

    /** The key groups this instance owns. */
    public KeyGroupRange keyGroupRange() {
        return backend.keyGroupRange();
    }

    /** The instance's state, encoded as a checkpoint encodes it. */
    public HarnessSnapshot snapshot() {
        Map<Integer, byte[]> groups = new HashMap<>();
        KeyGroupRange range = backend.keyGroupRange();
        for (int i = 0; i < range.size(); i++) {
            groups.put(range.start() + i, InstanceStateFile.keyGroupBlock(backend, i));
        }
        Map<String, OperatorStateStore.Mode> modes = new HashMap<>();
        Map<String, List<byte[]>> lists = new HashMap<>();
        store.lists()
                .forEach(
                        (name, entry) -> {
                            modes.put(name, entry.mode());
                            lists.put(name, entry.encodedElements());
                        });
        return new HarnessSnapshot(setup.instanceIndex, setup.keyGroups, groups, modes, lists);
    }

    /** Calls the function's {@code close}. */
    @Override
    public void close() throws Exception {
        driver.close();
    }

    private Object entry(StateDescriptor<?> descriptor, K key) {
        if (!owns(key)) {
            throw new InvalidJobException(
                    "key "
                            + key
                            + " is in key group "
                            + KeyGroups.keyGroupFor(key, setup.keyGroups)
                            + ", which this instance ("
                            + keyGroupRange()
                            + ") does not own");
        }
        return backend.table(descriptor)
                .group(
                        KeyGroups.keyGroupFor(key, setup.keyGroups)
                                - backend.keyGroupRange().start())
                .get(key);
    }

    /**
     * How the harnessed instance runs: its operator id, key groups, index and parallelism; then
     * {@link #open}.
     */
    public static final class Setup<K, I, O> {
        private final Supplier<? extends KeyedProcessFunction<K, ? super I, O>> factory;
        private final KeySelector<? super I, K> keySelector;
        private String operatorId = "harnessed";
        private int keyGroups = KeyGroups.DEFAULT_KEY_GROUPS;
        private int instanceIndex;
        private int parallelism = 1;

        private Setup(
                Supplier<? extends KeyedProcessFunction<K, ? super I, O>> factory,
                KeySelector<? super I, K> keySelector) {
            this.factory = factory;
            this.keySelector = keySelector;
        }

        /** The operator's id, as the job names it (its runtime context's {@code operatorId()}). */
        public Setup<K, I, O> operatorId(String id) {
            this.operatorId = id;
            return this;
        }

        /** The number of key groups (default 128, as a job's). */
        public Setup<K, I, O> keyGroups(int keyGroups) {
            KeyGroups.checkKeyGroups(keyGroups);
            this.keyGroups = keyGroups;
            return this;
        }

        /**
         * Run as instance {@code index} of {@code parallelism}: it owns that instance's key groups
         * only.
         */
        public Setup<K, I, O> instance(int index, int parallelism) {
            KeyGroups.checkParallelism(parallelism, keyGroups);
            KeyGroups.checkOperatorIndex(index, parallelism);
            this.instanceIndex = index;
            this.parallelism = parallelism;
            return this;
        }

        /** Opens a fresh instance (no state). */
        public KeyedFunctionHarness<K, I, O> open() throws Exception {
            return new KeyedFunctionHarness<>(this, List.of());
        }

        /**
         * Opens an instance restored from the snapshots of every instance of the previous run (at
         * any parallelism): it takes the key groups it owns and its share of operator lists.
         */
        public KeyedFunctionHarness<K, I, O> restore(List<HarnessSnapshot> snapshots)
                throws Exception {
            return new KeyedFunctionHarness<>(this, snapshots);
        }

        public KeyedFunctionHarness<K, I, O> restore(HarnessSnapshot snapshot) throws Exception {
            return restore(List.of(snapshot));
        }
    }
}
