package dev.flowscale.cli.inprocess;

import dev.flowscale.engine.api.RuntimeContext;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import java.util.List;

/**
 * A replayable source whose splits cannot be restored at one parallelism: a restore that fails for
 * real.
 */
final class RefusingSource<T> implements SourceFunction<T> {
    private final SourceFunction<T> delegate;
    private final int refused;

    RefusingSource(SourceFunction<T> delegate, int refusedParallelism) {
        this.delegate = delegate;
        this.refused = refusedParallelism;
    }

    @Override
    public SourceReader<T> createReader(RuntimeContext context) {
        return delegate.createReader(context);
    }

    @Override
    public SourceReader<T> restoreReader(RuntimeContext context, List<Object> splits) {
        return delegate.restoreReader(context, splits);
    }

    @Override
    public Class<?> splitType() {
        return delegate.splitType();
    }

    @Override
    public List<List<Object>> assignSplits(List<Object> splits, int parallelism) {
        if (parallelism == refused) {
            throw new IllegalStateException(
                    "this test source cannot restore its splits at parallelism " + refused);
        }
        return delegate.assignSplits(splits, parallelism);
    }
}
