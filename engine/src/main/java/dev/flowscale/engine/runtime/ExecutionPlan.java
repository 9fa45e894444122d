package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.checkpoint.RestoredState;
import dev.flowscale.engine.graph.Edge;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.graph.OperatorKind;
import dev.flowscale.engine.graph.OperatorNode;
import dev.flowscale.engine.graph.Partitioning;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.OperatorStateStore;
import dev.flowscale.engine.state.RocksDbKeyedStore;
import dev.flowscale.engine.state.StateBackendConfig;
import dev.flowscale.engine.time.TimestampedSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a job graph into connected tasks: an input gate per non-source instance with one channel
 * per upstream instance that feeds it, and a record writer per instance and outgoing edge.
 */
final class ExecutionPlan {
    private final JobGraph graph;
    private final RunSettings settings;
    private final Map<String, InputGate[]> gates = new HashMap<>();

    /** First channel index of each edge in its downstream gates. */
    private final Map<Edge, Integer> firstChannel = new HashMap<>();

    private final Map<String, Task[]> tasks = new HashMap<>();

    /** Whether any source has a watermark strategy: then every edge carries event time. */
    private final boolean eventTime;

    private ExecutionPlan(JobGraph graph, RunSettings settings) {
        this.graph = graph;
        this.settings = settings;
        this.eventTime =
                graph.operators().stream()
                        .anyMatch(n -> n.function() instanceof TimestampedSource<?>);
    }

    static List<Task> build(JobGraph graph, RunSettings settings) {
        return new ExecutionPlan(graph, settings).build();
    }

    private List<Task> build() {
        graph.operators().forEach(this::createGates);
        graph.operators().forEach(this::createTasks);
        List<Task> all = new ArrayList<>();
        for (String id : graph.topologicalOrder()) {
            Task[] instances = tasks.get(id);
            for (Task task : instances) {
                task.connect(output(id, task.context.instanceIndex(), task.clock));
                all.add(task);
            }
        }
        return all;
    }

    private void createGates(OperatorNode node) {
        if (node.kind().isSource()) {
            return;
        }
        int channels = 0;
        for (Edge edge : graph.inputsOf(node.id())) {
            firstChannel.put(edge, channels);
            channels += OperatorLogics.channelsOf(graph, edge);
        }
        InputGate[] instances = new InputGate[node.parallelism()];
        for (int i = 0; i < instances.length; i++) {
            instances[i] =
                    new InputGate(
                            channels, settings.config().channelCapacity(), settings.cancellation());
        }
        gates.put(node.id(), instances);
    }

    @SuppressWarnings("unchecked")
    private void createTasks(OperatorNode node) {
        Task[] instances = new Task[node.parallelism()];
        for (int i = 0; i < instances.length; i++) {
            TaskContext context =
                    new TaskContext(
                            graph.jobName(),
                            node.id(),
                            i,
                            node.parallelism(),
                            graph.keyGroups(),
                            settings.config().meterRegistry());
            TaskState state = state(node, i);
            Task task =
                    node.kind().isSource()
                            ? new SourceTask(
                                    context,
                                    settings,
                                    state,
                                    (SourceFunction<Object>) node.function())
                            : new OperatorTask(
                                    context,
                                    settings,
                                    state,
                                    gates.get(node.id())[i],
                                    OperatorLogics.create(
                                            graph,
                                            node,
                                            context,
                                            state,
                                            settings.config().clock()));
            task.cost(node.cost().isNone() ? null : meter(node, task.clock));
            if (eventTime) {
                task.eventTime();
            }
            instances[i] = task;
        }
        tasks.put(node.id(), instances);
    }

    /** A fresh instance's state, or what it owns of the snapshot being restored. */
    private TaskState state(OperatorNode node, int index) {
        KeyedStateBackend keyed =
                node.kind() == OperatorKind.KEYED_PROCESS ? keyedBackend(node, index) : null;
        OperatorStateStore operatorState = new OperatorStateStore(node.id());
        RestoredState.InstanceRestore restore =
                settings.restored() == null ? null : settings.restored().instance(node.id(), index);
        if (restore == null) {
            return new TaskState(keyed, operatorState, null, null);
        }
        restore.operatorLists()
                .forEach((name, list) -> operatorState.restore(name, list.mode(), list.elements()));
        return new TaskState(
                keyed, operatorState, node.kind().isSource() ? restore.splits() : null, restore);
    }

    /** On RocksDB, an instance of a hand-over rescale starts with the store prepared for it. */
    private KeyedStateBackend keyedBackend(OperatorNode node, int index) {
        StateBackendConfig backend = settings.config().stateBackend();
        RestoredState.InstanceRestore restore =
                settings.restored() == null ? null : settings.restored().instance(node.id(), index);
        RocksDbKeyedStore kept = restore == null ? null : restore.preparedStore();
        return new KeyedStateBackend(
                node.id(),
                graph.keyGroups(),
                KeyGroups.rangeFor(index, graph.keyGroups(), node.parallelism()),
                !backend.isRocksDb()
                        ? null
                        : kept != null
                                ? kept
                                : RocksDbKeyedStore.open(backend, node.id() + "-" + index));
    }

    private static Runnable meter(OperatorNode node, PhaseClock clock) {
        SyntheticCost.CostMeter meter = node.cost().meter();
        clock.onWait(meter::idle);
        return meter::charge;
    }

    /** The instance's writers: one per edge of its main output, and per side output tag. */
    private TaskOutput output(String id, int instance, PhaseClock clock) {
        List<RecordWriter> main = new ArrayList<>();
        Map<String, List<RecordWriter>> side = new HashMap<>();
        for (Edge edge : graph.outputsOf(id)) {
            RecordWriter writer = writer(edge, instance, clock);
            if (edge.outputTag() == null) {
                main.add(writer);
            } else {
                side.computeIfAbsent(edge.outputTag(), t -> new ArrayList<>()).add(writer);
            }
        }
        Map<String, RecordWriter[]> sideWriters = new HashMap<>();
        side.forEach((tag, writers) -> sideWriters.put(tag, writers.toArray(RecordWriter[]::new)));
        return new TaskOutput(main.toArray(RecordWriter[]::new), sideWriters);
    }

    private RecordWriter writer(Edge edge, int instance, PhaseClock clock) {
        InputGate[] downstream = gates.get(edge.to());
        int base = firstChannel.get(edge);
        boolean forward = edge.partitioning() == Partitioning.FORWARD;
        InputGate[] targets = forward ? new InputGate[] {downstream[instance]} : downstream;
        int[] channels = new int[targets.length];
        for (int j = 0; j < targets.length; j++) {
            channels[j] = forward ? base : base + instance;
        }
        return new RecordWriter(
                edge.partitioning(),
                edge.keySelector(),
                graph.keyGroups(),
                targets,
                channels,
                settings.config().batchSize(),
                clock,
                eventTime);
    }
}
