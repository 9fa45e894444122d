package dev.flowscale.engine.time;

import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.engine.api.WatermarkStrategy;
import java.util.List;

/**
 * A source with event time: the user's source, unchanged, and the watermark strategy the engine
 * applies to what its readers emit. A job with at least one such source carries event time on every
 * edge.
 */
public final class TimestampedSource<T> implements SourceFunction<T> {
    private final SourceFunction<T> source;
    private final WatermarkStrategy<T> strategy;

    public TimestampedSource(SourceFunction<T> source, WatermarkStrategy<T> strategy) {
        this.source = source;
        this.strategy = strategy;
    }

    public WatermarkStrategy<T> strategy() {
        return strategy;
    }

    /** The user's source. */
    public SourceFunction<T> source() {
        return source;
    }

    @Override
    public SourceReader<T> createReader(RuntimeContext context) {
        return source.createReader(context);
    }

    @Override
    public SourceReader<T> restoreReader(RuntimeContext context, List<Object> splits) {
        return source.restoreReader(context, splits);
    }

    @Override
    public Class<?> splitType() {
        return source.splitType();
    }

    @Override
    public List<List<Object>> assignSplits(List<Object> splits, int parallelism) {
        return source.assignSplits(splits, parallelism);
    }
}
