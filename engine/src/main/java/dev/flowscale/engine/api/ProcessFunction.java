package dev.flowscale.engine.api;

/**
 * A non-keyed operator with a life cycle and operator list state. Each instance gets its own object
 * from the supplier given to {@link dev.flowscale.engine.job.DataStream#process}. Override {@link
 * #processElement(Object, Collector)}, or {@link #processElement(Object, Context, Collector)} to
 * see each record's event time and the instance's watermark. Timers need a keyed stream ({@link
 * KeyedProcessFunction}), as in Flink.
 */
public abstract class ProcessFunction<I, O> {

    /** What a call of {@link #processElement(Object, Context, Collector)} may ask. */
    public interface Context {
        /**
         * The event time of the record being processed, which what it emits inherits; {@link
         * Long#MIN_VALUE} when the job has no event time.
         */
        long timestamp();

        /**
         * The instance's watermark: the minimum over its inputs' watermarks, as far as it has
         * advanced in this run; {@link Long#MIN_VALUE} before the first.
         */
        long currentWatermark();

        /** The job clock's time, epoch milliseconds. */
        long currentProcessingTime();
    }

    /** Called once per instance before the first record; register operator state here. */
    public void open(OperatorRuntimeContext context) throws Exception {}

    /** Processes one record; override this or the variant with a {@link Context}. */
    public void processElement(I value, Collector<O> out) throws Exception {
        throw new EngineException(
                getClass().getName()
                        + " overrides neither processElement(value, out) nor"
                        + " processElement(value, context, out); override one of them");
    }

    /**
     * Processes one record with its event time at hand; by default calls {@link
     * #processElement(Object, Collector)}.
     */
    public void processElement(I value, Context context, Collector<O> out) throws Exception {
        processElement(value, out);
    }

    /**
     * Called on the instance's thread when snapshot {@code checkpointId}'s barrier has arrived on
     * every input, before the instance's state is written: the moment to flush buffered output and
     * put into operator state what a restore needs.
     */
    public void snapshotState(long checkpointId) throws Exception {}

    public void close() throws Exception {}
}
