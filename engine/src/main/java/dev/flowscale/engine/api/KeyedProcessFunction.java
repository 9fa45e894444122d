package dev.flowscale.engine.api;

/**
 * Processes the records of a keyed stream one at a time, with state scoped to the current key. Each
 * operator instance gets its own object from the supplier given to {@link
 * dev.flowscale.engine.job.KeyedStream#process}, so fields are private to an instance.
 */
public abstract class KeyedProcessFunction<K, I, O> {

    /** What a call of {@link #processElement} may ask. */
    public interface Context<K> {
        K currentKey();
    }

    /** Called once per instance before the first record; register state here. */
    public void open(KeyedRuntimeContext context) throws Exception {}

    public abstract void processElement(I value, Context<K> context, Collector<O> out)
            throws Exception;

    /** Called once after the last record, also when the job fails. */
    public void close() throws Exception {}
}
