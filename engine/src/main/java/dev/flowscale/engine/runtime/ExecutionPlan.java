package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.SourceFunction;
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
 * Turns a job graph into connected tasks: operators chained by the {@link ChainPlan} join their
 * upstream instance's chain (no gate, a direct call); every other non-source instance gets an input
 * gate with one channel per upstream instance that feeds it, and a record writer per instance and
 * outgoing edge that is not chained.
 */
final class ExecutionPlan {
    private final JobGraph graph;
    private final RunSettings settings;
    private final Map<String, InputGate[]> gates = new HashMap<>();

    /** First channel index of each edge in its downstream gates. */
    private final Map<Edge, Integer> firstChannel = new HashMap<>();

    private final Map<String, Task[]> tasks = new HashMap<>();

    /** The input edge of each chained operator, by operator id. */
    private final Map<String, Edge> chainedInputs = new HashMap<>();

    /** The way into each chained instance from the instance it is chained to. */
    private final Map<Task, ChainLink> links = new HashMap<>();

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
        for (OperatorNode node : graph.operators()) {
            Edge chained = ChainPlan.chainedInput(graph, node);
            if (chained != null) {
                chainedInputs.put(node.id(), chained);
            }
        }
        graph.operators().forEach(this::createGates);
        graph.topologicalOrder().forEach(id -> createTasks(graph.operator(id)));
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
        if (node.kind().isSource() || chainedInputs.containsKey(node.id())) {
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
                            : operatorTask(node, i, context, state);
            task.cost(node.cost().isNone() ? null : meter(node, task.clock));
            if (eventTime) {
                task.eventTime();
            }
            instances[i] = task;
        }
        tasks.put(node.id(), instances);
    }

    /**
     * A non-source instance: fed by its gate, or chained to its upstream instance's chain (it then
     * shares that chain's thread and clock, so it joins before anything uses its clock).
     */
    private Task operatorTask(OperatorNode node, int index, TaskContext context, TaskState state) {
        Edge chained = chainedInputs.get(node.id());
        OperatorTask task =
                new OperatorTask(
                        context,
                        settings,
                        state,
                        chained == null ? gates.get(node.id())[index] : null,
                        OperatorLogics.create(
                                graph, node, context, state, settings.config().clock()));
        if (chained != null) {
            links.put(task, tasks.get(chained.from())[index].chain.join(task));
        }
        return task;
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

    /** Whether the operator runs in a chain with others. */
    private boolean sharesThread(OperatorNode node) {
        return chainedInputs.containsKey(node.id())
                || graph.outputsOf(node.id()).stream()
                        .anyMatch(e -> e.equals(chainedInputs.get(e.to())));
    }

    private MeteredCost meter(OperatorNode node, PhaseClock clock) {
        MeteredCost meter = new MeteredCost(node.cost(), sharesThread(node));
        clock.onWait(meter::idle);
        return meter;
    }

    /**
     * The instance's outputs: a link per chained edge, a writer per other edge of its main output
     * and per side output tag.
     */
    private TaskOutput output(String id, int instance, PhaseClock clock) {
        List<RecordWriter> main = new ArrayList<>();
        List<ChainLink> chained = new ArrayList<>();
        Map<String, List<RecordWriter>> side = new HashMap<>();
        for (Edge edge : graph.outputsOf(id)) {
            if (edge.equals(chainedInputs.get(edge.to()))) {
                chained.add(links.get(tasks.get(edge.to())[instance]));
                continue;
            }
            RecordWriter writer = writer(edge, instance, clock);
            if (edge.outputTag() == null) {
                main.add(writer);
            } else {
                side.computeIfAbsent(edge.outputTag(), t -> new ArrayList<>()).add(writer);
            }
        }
        Map<String, RecordWriter[]> sideWriters = new HashMap<>();
        side.forEach((tag, writers) -> sideWriters.put(tag, writers.toArray(RecordWriter[]::new)));
        return new TaskOutput(
                main.toArray(RecordWriter[]::new), sideWriters, chained.toArray(ChainLink[]::new));
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
