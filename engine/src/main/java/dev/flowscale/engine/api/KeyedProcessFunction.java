package dev.flowscale.engine.api;

/**
 * Processes the records of a keyed stream one at a time, with state and timers scoped to the
 * current key. Each operator instance gets its own object from the supplier given to {@link
 * dev.flowscale.engine.job.KeyedStream#process}, so fields are private to an instance.
 */
public abstract class KeyedProcessFunction<K, I, O> {

    /** What a call of {@link #processElement} may ask. */
    public interface Context<K> {
        K currentKey();

        /**
         * The event time of the record being processed (or of the timer firing); {@link
         * Long#MIN_VALUE} when the job has no event time.
         */
        long timestamp();

        /** Timers of the current key, and the instance's watermark and wall clock. */
        TimerService timerService();

        /** Emits {@code value} to side output {@code tag} instead of the main output. */
        <X> void output(OutputTag<X> tag, X value);
    }

    /** What a call of {@link #onTimer} may ask besides the {@link Context}. */
    public interface OnTimerContext<K> extends Context<K> {
        TimeDomain timeDomain();
    }

    /** Called once per instance before the first record; register state here. */
    public void open(KeyedRuntimeContext context) throws Exception {}

    public abstract void processElement(I value, Context<K> context, Collector<O> out)
            throws Exception;

    /**
     * A timer of the current key fired: an event-time timer once the watermark reached {@code
     * timestamp} (what it emits gets that event time), a processing-time timer once the wall clock
     * did.
     */
    public void onTimer(long timestamp, OnTimerContext<K> context, Collector<O> out)
            throws Exception {}

    /** Called once after the last record, also when the job fails. */
    public void close() throws Exception {}
}
