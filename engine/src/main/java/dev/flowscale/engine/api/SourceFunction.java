package dev.flowscale.engine.api;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * A parallel source. The engine asks it for one {@link SourceReader} per instance and pulls records
 * from that reader, so that it controls batching, backpressure and stopping.
 *
 * <p>A replayable source describes its position as <em>splits</em> (a Kafka partition and offset, a
 * range of sequence numbers): readers snapshot their splits at a checkpoint, and on restore the
 * engine hands all splits to {@link #assignSplits} for the new parallelism and each new reader gets
 * its share through {@link #restoreReader}.
 */
public interface SourceFunction<T> {

    /** A reader for a fresh start. */
    SourceReader<T> createReader(RuntimeContext context);

    /** A reader that resumes from the given splits; by default the source is not replayable. */
    default SourceReader<T> restoreReader(RuntimeContext context, List<Object> splits) {
        return createReader(context);
    }

    /**
     * The type of the splits that {@link SourceReader#snapshotSplits()} returns
     * (Jackson-serializable).
     */
    default Class<?> splitType() {
        return Object.class;
    }

    /**
     * How many splits the source has now, when they bound its useful parallelism (a Kafka topic's
     * partitions: an instance beyond them reads nothing); empty when the source is not bounded by
     * its splits or does not know their number yet. The autoscaler caps the source's parallelism at
     * it. Called from the metrics thread: keep it cheap and thread-safe.
     */
    default OptionalInt splitCount() {
        return OptionalInt.empty();
    }

    /** Deals all splits over {@code parallelism} readers; round robin by default. */
    default List<List<Object>> assignSplits(List<Object> splits, int parallelism) {
        List<List<Object>> assigned = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            assigned.add(new ArrayList<>());
        }
        for (int i = 0; i < splits.size(); i++) {
            assigned.get(i % parallelism).add(splits.get(i));
        }
        return assigned;
    }
}
