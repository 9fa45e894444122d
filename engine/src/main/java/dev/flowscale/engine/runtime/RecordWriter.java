package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.api.KeySelector;
import dev.flowscale.engine.graph.Partitioning;
import dev.flowscale.engine.state.KeyGroups;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One producer instance's side of one edge: a batch buffer per downstream instance it feeds, filled
 * by the edge's partitioning and handed over when full or flushed.
 */
final class RecordWriter {
    private final Partitioning partitioning;
    private final KeySelector<Object, Object> keySelector;
    private final int keyGroups;
    private final InputGate[] gates;
    private final int[] channels;
    private final int batchSize;
    private final PhaseClock clock;
    private final Object[][] buffers;
    private final int[] sizes;

    /** Event times parallel to {@link #buffers}; null when the job has no event time. */
    private final long[][] times;

    /**
     * On a keyed exchange, the records' keys and key hashes parallel to {@link #buffers} (handed on
     * with them, so the consumer does not compute them again) and the channel that owns each key
     * group; null on other edges.
     */
    private final Object[][] keys;

    private final int[][] keyHashes;
    private final int[] owners;

    /**
     * When a buffer is handed over: the batch size, or less when the consumer debloats its input.
     */
    private final int[] flushSizes;

    private int roundRobin;

    RecordWriter(
            Partitioning partitioning,
            KeySelector<Object, Object> keySelector,
            int keyGroups,
            InputGate[] gates,
            int[] channels,
            int batchSize,
            PhaseClock clock,
            boolean timestamped) {
        this.partitioning = partitioning;
        this.keySelector = keySelector;
        this.keyGroups = keyGroups;
        this.gates = gates;
        this.channels = channels;
        this.batchSize = batchSize;
        this.clock = clock;
        this.buffers = new Object[gates.length][batchSize];
        this.sizes = new int[gates.length];
        this.times = timestamped ? new long[gates.length][batchSize] : null;
        boolean keyed = partitioning == Partitioning.HASH;
        this.keys = keyed ? new Object[gates.length][batchSize] : null;
        this.keyHashes = keyed ? new int[gates.length][batchSize] : null;
        this.owners = keyed ? owners(keyGroups, gates.length) : null;
        this.flushSizes = new int[gates.length];
        for (int i = 0; i < gates.length; i++) {
            flushSizes[i] = Math.max(1, Math.min(batchSize, gates[i].recordLimit() / 2));
        }
    }

    /** Emits a record; {@code timestamp} is kept only when the job has event time. */
    void emit(Object record, long timestamp) throws InterruptedException {
        switch (partitioning) {
            case FORWARD -> add(0, record, timestamp);
            case REBALANCE -> {
                add(roundRobin, record, timestamp);
                roundRobin = roundRobin + 1 == gates.length ? 0 : roundRobin + 1;
            }
            case HASH -> addKeyed(record, timestamp);
            case BROADCAST -> {
                for (int i = 0; i < gates.length; i++) {
                    add(i, record, timestamp);
                }
            }
        }
    }

    /** The smallest batch this writer currently hands over (smaller when consumers debloat). */
    int suggestedBatch() {
        int min = batchSize;
        for (int size : flushSizes) {
            min = Math.min(min, size);
        }
        return min;
    }

    void flush() throws InterruptedException {
        for (int i = 0; i < gates.length; i++) {
            if (sizes[i] > 0) {
                push(i);
            }
        }
    }

    void endOfStream() throws InterruptedException {
        broadcastEvent(Batch.END_OF_STREAM);
    }

    /**
     * Flushes, then sends an event (barrier, end of stream) to every channel; never blocks on
     * capacity.
     */
    void broadcastEvent(Batch event) throws InterruptedException {
        flush();
        for (int i = 0; i < gates.length; i++) {
            gates[i].put(channels[i], event, clock);
        }
    }

    /**
     * Sends a latency marker to one channel picked at random (as Flink does), behind the records
     * already buffered for it: the partly filled batch goes first, so the marker neither overtakes
     * records nor waits longer than they do. Like other events it never blocks on capacity.
     */
    void emitMarker(Batch marker) throws InterruptedException {
        int target = gates.length == 1 ? 0 : ThreadLocalRandom.current().nextInt(gates.length);
        if (sizes[target] > 0) {
            push(target);
        }
        gates[target].put(channels[target], marker, clock);
    }

    /**
     * The instance that owns each key group, computed (and checked) once rather than per record.
     */
    private static int[] owners(int keyGroups, int parallelism) {
        int[] owners = new int[keyGroups];
        for (int group = 0; group < keyGroups; group++) {
            owners[group] = KeyGroups.operatorIndexFor(group, keyGroups, parallelism);
        }
        return owners;
    }

    /** Routes a record by its key's group, keeping the key and its hash beside it. */
    private void addKeyed(Object record, long timestamp) throws InterruptedException {
        Object key = key(record);
        int hash = KeyGroups.keyHash(key);
        int target = owners[hash % keyGroups];
        keys[target][sizes[target]] = key;
        keyHashes[target][sizes[target]] = hash;
        add(target, record, timestamp);
    }

    private void add(int target, Object record, long timestamp) throws InterruptedException {
        if (times != null) {
            times[target][sizes[target]] = timestamp;
        }
        buffers[target][sizes[target]++] = record;
        if (sizes[target] >= flushSizes[target]) {
            push(target);
        }
    }

    /**
     * Hands the target's buffer over and starts the next one, sized for the records it will hold: a
     * consumer that debloats its input takes batches of a few records, and arrays of the full batch
     * size would then cost more to allocate and clear than the records cost to process.
     */
    private void push(int target) throws InterruptedException {
        long[] batchTimes = times == null ? null : times[target];
        Batch batch;
        if (keys != null) {
            batch =
                    Batch.keyed(
                            buffers[target],
                            sizes[target],
                            batchTimes,
                            keys[target],
                            keyHashes[target]);
        } else if (batchTimes != null) {
            batch = Batch.data(buffers[target], sizes[target], batchTimes);
        } else {
            batch = Batch.data(buffers[target], sizes[target]);
        }
        sizes[target] = 0;
        gates[target].put(channels[target], batch, clock);
        int next = Math.max(1, Math.min(batchSize, gates[target].recordLimit() / 2));
        flushSizes[target] = next;
        buffers[target] = new Object[next];
        if (batchTimes != null) {
            times[target] = new long[next];
        }
        if (keys != null) {
            keys[target] = new Object[next];
            keyHashes[target] = new int[next];
        }
    }

    private Object key(Object record) {
        try {
            return keySelector.getKey(record);
        } catch (RuntimeException e) {
            throw e instanceof EngineException ? e : new UserCodeException("key selector", e);
        } catch (Exception e) {
            throw new UserCodeException("key selector", e);
        }
    }
}
