package dev.flowscale.engine.api;

/**
 * A non-keyed operator with a life cycle and operator list state. Each instance gets its own object
 * from the supplier given to {@link dev.flowscale.engine.job.DataStream#process}.
 */
public abstract class ProcessFunction<I, O> {

    /** Called once per instance before the first record; register operator state here. */
    public void open(OperatorRuntimeContext context) throws Exception {}

    public abstract void processElement(I value, Collector<O> out) throws Exception;

    public void close() throws Exception {}
}
