package dev.flowscale.engine.api;

/**
 * The collector a {@link SourceReader} emits into when its source has a {@link WatermarkStrategy}:
 * a reader with several splits says which split the records that follow come from, so that each
 * split gets its own watermark. Readers call {@link #select}, which does nothing for sources
 * without event time.
 */
public interface SplitCollector<T> extends Collector<T> {

    /** Records collected from now on come from {@code split} (any value with equals/hashCode). */
    void startSplit(Object split);

    /**
     * {@code split} has no more records, ever: its watermark stops holding the source back (a
     * source whose splits have all finished lets every window and timer downstream fire).
     */
    void finishSplit(Object split);

    /** Tells {@code out} that the records that follow come from {@code split}, if it cares. */
    static void select(Collector<?> out, Object split) {
        if (out instanceof SplitCollector<?> splits) {
            splits.startSplit(split);
        }
    }

    /** Tells {@code out} that {@code split} has no more records, if it cares. */
    static void finish(Collector<?> out, Object split) {
        if (out instanceof SplitCollector<?> splits) {
            splits.finishSplit(split);
        }
    }
}
