package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.FilterFunction;
import dev.flowscale.engine.api.FlatMapFunction;
import dev.flowscale.engine.api.KeySelector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.MapFunction;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.api.SinkFunction;
import dev.flowscale.engine.graph.Edge;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.OperatorNode;
import dev.flowscale.engine.graph.Partitioning;
import dev.flowscale.engine.metrics.KeyGroupCounter;
import dev.flowscale.engine.state.KeyedStateBackend;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Builds the per-instance logic of each operator kind from its node. */
final class OperatorLogics {
    private OperatorLogics() {}

    @SuppressWarnings("unchecked")
    static OperatorLogic create(
            JobGraph graph, OperatorNode node, TaskContext context, TaskState state, Clock clock) {
        Object fn = node.function();
        return switch (node.kind()) {
            case MAP ->
                    (record, out) -> out.collect(((MapFunction<Object, Object>) fn).map(record));
            case FLAT_MAP ->
                    (record, out) -> ((FlatMapFunction<Object, Object>) fn).flatMap(record, out);
            case FILTER ->
                    (record, out) -> {
                        if (((FilterFunction<Object>) fn).filter(record)) {
                            out.collect(record);
                        }
                    };
            case SINK -> (record, out) -> ((SinkFunction<Object>) fn).invoke(record);
            case PROCESS ->
                    new ProcessLogic(
                            ((Supplier<ProcessFunction<Object, Object>>) fn).get(),
                            context.user(state),
                            clock);
            case KEYED_PROCESS -> keyed(graph, node, context, state, clock);
            case SOURCE -> throw new IllegalArgumentException(node + " is a source");
        };
    }

    /**
     * The keyed logic of a node; a node whose inputs come in on two sides (connected streams) keys
     * each record by its own side's selector and tells its function the side.
     */
    @SuppressWarnings("unchecked")
    private static OperatorLogic keyed(
            JobGraph graph, OperatorNode node, TaskContext context, TaskState state, Clock clock) {
        KeySelector<Object, Object>[] selectors = new KeySelector[2];
        for (Edge edge : graph.inputsOf(node.id())) {
            selectors[edge.input()] = edge.keySelector();
        }
        KeyedProcessFunction<Object, Object, Object> fn =
                ((Supplier<KeyedProcessFunction<Object, Object, Object>>) node.function()).get();
        KeyedLogic logic =
                new KeyedLogic(fn, selectors[0], state.keyed(), context.user(state), clock);
        if (selectors[1] != null) {
            logic.twoInputs(selectors[1], channelInputs(graph, node));
        }
        return logic;
    }

    /** How many channels an edge has at each downstream instance: one per upstream instance. */
    static int channelsOf(JobGraph graph, Edge edge) {
        return edge.partitioning() == Partitioning.FORWARD
                ? 1
                : graph.operator(edge.from()).parallelism();
    }

    /**
     * The input (0 or 1) of each channel of the node's gate, in the gate's layout: edges in order,
     * one channel per upstream instance (one for a forward edge).
     */
    static int[] channelInputs(JobGraph graph, OperatorNode node) {
        List<Integer> inputs = new ArrayList<>();
        for (Edge edge : graph.inputsOf(node.id())) {
            for (int c = 0; c < channelsOf(graph, edge); c++) {
                inputs.add(edge.input());
            }
        }
        return inputs.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Sets the current key, then calls the user's keyed function through its driver. */
    static final class KeyedLogic implements OperatorLogic {
        private final KeyedProcessFunction<Object, Object, Object> function;
        private KeySelector<Object, Object> selector;
        private final KeyedStateBackend backend;
        private final TaskContext.UserContext context;
        private final Clock clock;
        private KeyedFunctionDriver<Object, Object, Object> driver;

        /** Counts each record's key group; null when the job is not instrumented. */
        private KeyGroupCounter keyGroups;

        /** For two inputs: the second input's key selector and each channel's input. */
        private KeySelector<Object, Object> first;

        private KeySelector<Object, Object> second;
        private int[] channelInputs;

        KeyedLogic(
                KeyedProcessFunction<Object, Object, Object> function,
                KeySelector<Object, Object> selector,
                KeyedStateBackend backend,
                TaskContext.UserContext context,
                Clock clock) {
            this.function = function;
            this.selector = selector;
            this.backend = backend;
            this.context = context;
            this.clock = clock;
        }

        /** Makes this the logic of connected streams: keyed per input, function told the input. */
        void twoInputs(KeySelector<Object, Object> secondSelector, int[] inputs) {
            this.first = selector;
            this.second = secondSelector;
            this.channelInputs = inputs;
        }

        @Override
        public void onBatchFrom(int channel) {
            if (channelInputs != null) {
                int input = channelInputs[channel];
                selector = input == 0 ? first : second;
                ((CoProcessAdapter<?, ?, ?, ?>) (Object) function).input(input);
            }
        }

        @Override
        public void connect(TaskOutput out) {
            driver =
                    new KeyedFunctionDriver<>(
                            function,
                            backend,
                            clock::millis,
                            () -> out.timestamp,
                            time -> out.timestamp = time,
                            (tag, value) -> out.side(tag.id(), value));
        }

        @Override
        public void open() throws Exception {
            driver.open(context);
        }

        @Override
        public void process(Object record, Collector<Object> out) throws Exception {
            backend.setCurrentKey(selector.getKey(record));
            processCurrent(record, out);
        }

        /** The key was selected, and hashed, by the producer with this input's own selector. */
        @Override
        public void processKeyed(Object record, Object key, int keyHash, Collector<Object> out)
                throws Exception {
            backend.setCurrentKey(key, keyHash);
            processCurrent(record, out);
        }

        private void processCurrent(Object record, Collector<Object> out) throws Exception {
            if (keyGroups != null) {
                keyGroups.count(backend.currentKeyGroupIndex());
            }
            driver.processElement(record, out);
        }

        @Override
        public void onWatermark(long watermark, TaskOutput out) throws Exception {
            driver.advanceWatermark(watermark, out);
        }

        @Override
        public long nextProcessingTimer() {
            return driver.nextProcessingTimer();
        }

        @Override
        public void onProcessingTime(long now, TaskOutput out) throws Exception {
            driver.advanceProcessingTime(now, out);
        }

        /**
         * Counts every record this instance processes per key group; called before the task runs.
         */
        void countKeyGroups(KeyGroupCounter counter) {
            this.keyGroups = counter;
        }

        @Override
        public void close() throws Exception {
            function.close();
        }
    }
}
