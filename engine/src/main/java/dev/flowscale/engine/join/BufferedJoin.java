package dev.flowscale.engine.join;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.JoinFunction;
import dev.flowscale.engine.api.KeyedCoProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.MapState;
import dev.flowscale.engine.api.StateDescriptor;

/**
 * A join whose two inputs wait in keyed state, each side's records grouped by a long (an event time
 * or a window start) as arrays of the side's type, so that restored records read back typed.
 */
abstract class BufferedJoin<K, A, B, O> extends KeyedCoProcessFunction<K, A, B, O> {
    private final JoinFunction<A, B, O> join;
    private final Class<A> leftType;
    private final Class<B> rightType;
    MapState<Long, A[]> left;
    MapState<Long, B[]> right;

    BufferedJoin(JoinFunction<A, B, O> join, Class<A> leftType, Class<B> rightType) {
        this.join = join;
        this.leftType = leftType;
        this.rightType = rightType;
    }

    @Override
    public void open(KeyedRuntimeContext context) {
        left = context.mapState(buffer("__flowscale.join.left", leftType));
        right = context.mapState(buffer("__flowscale.join.right", rightType));
    }

    private static <T> StateDescriptor<T[]> buffer(String name, Class<T> type) {
        return StateDescriptor.map(name, Long.class, Buffers.arrayOf(type));
    }

    void bufferLeft(long group, A record) {
        Buffers.append(left, group, record, leftType);
    }

    void bufferRight(long group, B record) {
        Buffers.append(right, group, record, rightType);
    }

    void emit(A a, B b, Collector<O> out) throws Exception {
        out.collect(join.join(a, b));
    }
}
