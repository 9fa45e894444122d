package dev.flowscale.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One reader's partitions: the next offset to emit and the last known end offset of each. The
 * reader's thread writes the partitions and their next offsets; the ends are written by that thread
 * and by the reader's end query ({@link EndOffsetQuery}), each end under its partition's lock; the
 * metrics thread reads the lag. So the map is concurrent and the fields volatile.
 */
final class PartitionPositions {
    private static final long UNKNOWN = -1;

    /** Mutable so that passing a record costs no allocation. */
    private static final class Position {
        volatile long next;
        volatile long end = UNKNOWN;

        Position(long next) {
            this.next = next;
        }
    }

    private final String topic;
    private final Map<Integer, Position> positions = new ConcurrentSkipListMap<>();
    private volatile boolean discovered;

    PartitionPositions(String topic) {
        this.topic = topic;
    }

    boolean owns(int partition) {
        return positions.containsKey(partition);
    }

    /** Starts tracking {@code partition} at {@code next}; its end is not known yet. */
    void add(int partition, long next) {
        positions.put(partition, new Position(next));
    }

    long next(int partition) {
        return positions.get(partition).next;
    }

    /** The record at {@code offset} was emitted (or sent to the dead-letter topic). */
    void passed(int partition, long offset) {
        positions.get(partition).next = offset + 1;
    }

    /**
     * The partition's log ends at least at {@code end} (for a read_committed reader: its stable
     * offset). Ends only grow: a fetch response older than the last end query must not move it
     * back.
     */
    void endAt(int partition, long end) {
        Position position = positions.get(partition);
        synchronized (position) {
            position.end = Math.max(position.end, end);
        }
    }

    String topic() {
        return topic;
    }

    boolean endKnown(int partition) {
        return positions.get(partition).end != UNKNOWN;
    }

    /** Records in the log not yet emitted, per partition whose end is known. */
    Map<Integer, Long> lag() {
        Map<Integer, Long> lag = new ConcurrentSkipListMap<>();
        positions.forEach(
                (partition, position) -> {
                    long end = position.end;
                    if (end != UNKNOWN) {
                        lag.put(partition, Math.max(0, end - position.next));
                    }
                });
        return lag;
    }

    /**
     * The reader has found the partitions it owns (its first discovery): before that, owning none
     * means nothing.
     */
    void discovered() {
        discovered = true;
    }

    /**
     * The summed lag; empty (no signal, which is not zero lag) until the reader has found its
     * partitions and learnt every one's end. A partial sum would understate what it owes.
     */
    OptionalLong totalLag() {
        if (!discovered) {
            return OptionalLong.empty();
        }
        long total = 0;
        for (Position position : positions.values()) {
            long end = position.end;
            if (end == UNKNOWN) {
                return OptionalLong.empty();
            }
            total += Math.max(0, end - position.next);
        }
        return OptionalLong.of(total);
    }

    List<Integer> partitions() {
        return new ArrayList<>(positions.keySet());
    }

    List<KafkaPartitionSplit> splits() {
        List<KafkaPartitionSplit> splits = new ArrayList<>();
        positions.forEach(
                (p, position) -> splits.add(new KafkaPartitionSplit(topic, p, position.next)));
        return splits;
    }
}
