package dev.flowscale.engine.api;

/**
 * Processes two keyed streams that share a key type (connected with {@code connect}): records of
 * either input reach the instance that owns their key, with the same keyed state and timers. Each
 * operator instance gets its own object from the supplier given to {@code process}.
 */
public abstract class KeyedCoProcessFunction<K, I1, I2, O> {

    /** Called once per instance before the first record; register state here. */
    public void open(KeyedRuntimeContext context) throws Exception {}

    public abstract void processElement1(
            I1 value, KeyedProcessFunction.Context<K> context, Collector<O> out) throws Exception;

    public abstract void processElement2(
            I2 value, KeyedProcessFunction.Context<K> context, Collector<O> out) throws Exception;

    /** A timer of the current key fired (see {@link KeyedProcessFunction#onTimer}). */
    public void onTimer(
            long timestamp, KeyedProcessFunction.OnTimerContext<K> context, Collector<O> out)
            throws Exception {}

    public void close() throws Exception {}
}
