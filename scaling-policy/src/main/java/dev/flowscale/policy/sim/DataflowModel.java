package dev.flowscale.policy.sim;

import dev.flowscale.policy.api.JobTopology;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * A discrete-time fluid model of a running dataflow. Each {@link #step} covers the interval that
 * ends at the clock's current time. Operators are visited sinks first: each processes what is
 * queued, up to its capacity and the free room in its downstream queues (bounded: backpressure),
 * then pushes its output downstream. An operator with several inputs has a buffer per input and
 * takes from each in proportion to what it holds, as a network stack with buffers per input channel
 * does: one input cannot take the room of another because it was visited first. Sources owe their
 * offered records; what they cannot emit becomes backlog. During a rescale the job is down and only
 * backlog grows. Deterministic: the seeded random only draws optional capacity noise.
 */
public final class DataflowModel {

    private static final int MAX_SAMPLES = 3600;

    private final Scenario scenario;
    private final Clock clock;
    private final Instant start;
    private final double bufferSeconds;
    private final double noise;
    private final Random random;
    private final Map<String, Double> queued = new HashMap<>();
    // per operator, what each of its inputs holds in its share of the buffer (sums to queued)
    private final Map<String, Map<String, Double>> inbox = new HashMap<>();
    private final Map<String, OperatorCounters> counters = new HashMap<>();
    // The graph never changes, only parallelism: look its shape up once, not on every step.
    private final Map<String, SimOperator> operators = new HashMap<>();
    private final Map<String, List<String>> outputs = new HashMap<>();
    private final List<String> sources;
    private final List<String> sinksFirst;
    private final Deque<StepSample> samples = new ArrayDeque<>();
    private JobTopology topology;
    private Instant restartedAt;
    private PendingRescale pending;

    private record PendingRescale(
            Map<String, Integer> target, Instant until, CompletableFuture<Void> done) {}

    public DataflowModel(
            Scenario scenario, Clock clock, double bufferSeconds, double noise, long seed) {
        this.scenario = scenario;
        this.clock = clock;
        this.start = clock.instant();
        this.restartedAt = start;
        this.bufferSeconds = bufferSeconds;
        this.noise = noise;
        this.random = new Random(seed);
        this.topology = scenario.topology();
        scenario.operators().forEach(op -> queued.put(op.id(), 0.0));
        scenario.operators().forEach(op -> operators.put(op.id(), op));
        scenario.operators().forEach(op -> outputs.put(op.id(), topology.outputsOf(op.id())));
        for (SimOperator op : scenario.operators()) {
            Map<String, Double> inputs = new HashMap<>();
            topology.inputsOf(op.id()).forEach(up -> inputs.put(up, 0.0));
            inbox.put(op.id(), inputs);
        }
        this.sources = topology.sources();
        List<String> order = new ArrayList<>(topology.topologicalOrder());
        Collections.reverse(order);
        this.sinksFirst = List.copyOf(order);
        resetCounters();
    }

    /**
     * What an operator's instances counted since the job last (re)started, as Flink's task metrics
     * do: records in and out, and per instance seconds busy and seconds backpressured (blocked on a
     * full downstream queue).
     */
    public record OperatorCounters(
            double recordsIn,
            double recordsOut,
            double[] busySeconds,
            double[] backpressuredSeconds) {

        public OperatorCounters {
            busySeconds = busySeconds.clone();
            backpressuredSeconds = backpressuredSeconds.clone();
        }

        @Override
        public double[] busySeconds() {
            return busySeconds.clone();
        }

        @Override
        public double[] backpressuredSeconds() {
            return backpressuredSeconds.clone();
        }

        private OperatorCounters plus(double[][] perInstance, double[] backpressured) {
            double[] busy = busySeconds.clone();
            double[] blocked = backpressuredSeconds.clone();
            double in = recordsIn;
            double out = recordsOut;
            for (int k = 0; k < perInstance.length; k++) {
                in += perInstance[k][0];
                out += perInstance[k][1];
                busy[k] += perInstance[k][2];
                blocked[k] += backpressured[k];
            }
            return new OperatorCounters(in, out, busy, blocked);
        }
    }

    private void resetCounters() {
        for (SimOperator op : scenario.operators()) {
            int p = topology.operator(op.id()).parallelism();
            counters.put(op.id(), new OperatorCounters(0, 0, new double[p], new double[p]));
        }
    }

    /** The operator's counters since the job last (re)started. */
    public OperatorCounters counters(String operatorId) {
        return counters.get(operatorId);
    }

    /** Records the source owes but has not emitted. */
    public double backlog(String sourceId) {
        return queued.get(sourceId);
    }

    /** Simulates the interval of length {@code dt} that ends now. */
    public void step(Duration dt) {
        Instant end = clock.instant();
        double seconds = dt.toNanos() / 1e9;
        long second = Duration.between(start, end.minus(dt)).toSeconds();
        Map<String, Double> offered = offer(second, seconds);
        if (pending != null) {
            finishRescaleIfDue(end);
            return;
        }
        Map<String, double[][]> counts = new HashMap<>();
        for (String id : sinksFirst) {
            counts.put(id, process(operators.get(id), seconds));
        }
        record(new StepSample(end, counts, offered, sourceBacklog()));
    }

    private Map<String, Double> offer(long second, double seconds) {
        Map<String, Double> offered = new HashMap<>();
        for (String id : sources) {
            double records = operators.get(id).rate().at(second) * seconds;
            offered.put(id, records);
            queued.merge(id, records, Double::sum);
        }
        return offered;
    }

    private double[][] process(SimOperator op, double seconds) {
        int p = topology.operator(op.id()).parallelism();
        double factor =
                noise == 0 ? 1 : Math.max(0.5, Math.min(1.5, 1 + noise * random.nextGaussian()));
        double capacity = op.effectiveCapacity(p) * factor * seconds;
        double room = outputRoom(op);
        boolean blocked = room < Math.min(queued.get(op.id()), capacity);
        double processed = Math.max(0, Math.min(queued.get(op.id()), Math.min(capacity, room)));
        takeFromInputs(op.id(), processed);
        queued.merge(op.id(), -processed, Double::sum);
        for (String down : outputs.get(op.id())) {
            queued.merge(down, processed * op.selectivity(), Double::sum);
            inbox.get(down).merge(op.id(), processed * op.selectivity(), Double::sum);
        }
        double[][] perInstance = new double[p][];
        double[] backpressured = new double[p];
        for (int k = 0; k < p; k++) {
            double in = processed * op.share(k, p);
            perInstance[k] =
                    new double[] {
                        in, in * op.selectivity(), in / (op.perInstanceCapacity(p) * factor)
                    };
            backpressured[k] = blocked ? Math.max(0, seconds - perInstance[k][2]) : 0;
        }
        counters.put(op.id(), counters.get(op.id()).plus(perInstance, backpressured));
        return perInstance;
    }

    /** What the operator processed, taken from each input in proportion to what it holds. */
    private void takeFromInputs(String id, double processed) {
        double held = queued.get(id);
        if (held > 0) {
            inbox.get(id).replaceAll((up, q) -> Math.max(0, q - processed * q / held));
        }
    }

    /** Input records the operator may process before its buffer at a downstream one is full. */
    private double outputRoom(SimOperator op) {
        double room = Double.POSITIVE_INFINITY;
        for (String down : outputs.get(op.id())) {
            double free = Math.max(0, bufferOf(down) - inbox.get(down).get(op.id()));
            room = Math.min(room, op.selectivity() == 0 ? room : free / op.selectivity());
        }
        return room;
    }

    private double bufferOf(String id) {
        int p = topology.operator(id).parallelism();
        return bufferSeconds * p * operators.get(id).perInstanceCapacity(p);
    }

    private Map<String, Double> sourceBacklog() {
        Map<String, Double> backlog = new HashMap<>();
        sources.forEach(id -> backlog.put(id, queued.get(id)));
        return backlog;
    }

    private void record(StepSample sample) {
        samples.addLast(sample);
        if (samples.size() > MAX_SAMPLES) {
            samples.pollFirst();
        }
    }

    /** Stops the job now and restarts it at {@code target} parallelism after {@code downtime}. */
    public CompletableFuture<Void> rescale(Map<String, Integer> target, Duration downtime) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        pending = new PendingRescale(Map.copyOf(target), clock.instant().plus(downtime), done);
        return done;
    }

    private void finishRescaleIfDue(Instant end) {
        if (end.isBefore(pending.until())) {
            return;
        }
        topology = topology.withParallelism(pending.target());
        restartedAt = end;
        samples.clear();
        resetCounters();
        PendingRescale finished = pending;
        pending = null;
        finished.done().complete(null);
    }

    public JobTopology topology() {
        return topology;
    }

    public Scenario scenario() {
        return scenario;
    }

    public boolean isRescaling() {
        return pending != null;
    }

    public Instant restartedAt() {
        return restartedAt;
    }

    /**
     * Steps since the last restart that ended within {@code window} of the last one, oldest first.
     * Reads only those steps: a decision every few seconds must not copy an hour of them.
     */
    List<StepSample> samplesWithin(Duration window) {
        List<StepSample> recent = new ArrayList<>();
        Iterator<StepSample> newestFirst = samples.descendingIterator();
        Instant from = samples.isEmpty() ? null : samples.peekLast().end().minus(window);
        while (newestFirst.hasNext()) {
            StepSample s = newestFirst.next();
            if (!s.end().isAfter(from)) {
                break;
            }
            recent.add(s);
        }
        Collections.reverse(recent);
        return recent;
    }

    /** Steps recorded since the last restart, oldest first. */
    public List<StepSample> samples() {
        return List.copyOf(samples);
    }

    /** Backlog of all sources together, in records. */
    public double totalBacklog() {
        return sources.stream().mapToDouble(queued::get).sum();
    }

    public Instant start() {
        return start;
    }
}
