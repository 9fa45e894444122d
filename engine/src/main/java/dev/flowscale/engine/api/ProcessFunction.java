package dev.flowscale.engine.api;

/**
 * A non-keyed operator with a life cycle and operator list state. Each instance gets its own object
 * from the supplier given to {@link dev.flowscale.engine.job.DataStream#process}.
 */
public abstract class ProcessFunction<I, O> {

    /** Called once per instance before the first record; register operator state here. */
    public void open(OperatorRuntimeContext context) throws Exception {}

    public abstract void processElement(I value, Collector<O> out) throws Exception;

    /**
     * Called on the instance's thread when snapshot {@code checkpointId}'s barrier has arrived on
     * every input, before the instance's state is written: the moment to flush buffered output and
     * put into operator state what a restore needs.
     */
    public void snapshotState(long checkpointId) throws Exception {}

    public void close() throws Exception {}
}
