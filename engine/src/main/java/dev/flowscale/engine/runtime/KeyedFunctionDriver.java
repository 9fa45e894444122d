package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.KeyedProcessFunction;
import dev.flowscale.engine.api.KeyedRuntimeContext;
import dev.flowscale.engine.api.OutputTag;
import dev.flowscale.engine.api.TimeDomain;
import dev.flowscale.engine.api.TimerService;
import dev.flowscale.engine.state.KeyedStateBackend;
import dev.flowscale.engine.state.KeyedTimers;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Calls one instance of a {@link KeyedProcessFunction}: sets the current key, hands the function
 * its context (key, event time, timers), and fires its timers when the watermark or the wall clock
 * passes them. The task and the one-instance test harness both drive functions through it, so the
 * harness behaves as a running job does.
 */
public final class KeyedFunctionDriver<K, I, O> implements KeyedProcessFunction.OnTimerContext<K> {
    private final KeyedProcessFunction<K, I, O> function;
    private final KeyedStateBackend backend;
    private final LongSupplier wallClockMillis;
    private final LongSupplier recordTime;
    private final LongConsumer emitTime;
    private final BiConsumer<OutputTag<?>, Object> sideOutput;
    private KeyedTimers timers;

    /** The time and domain of the timer firing now; null domain while a record is processed. */
    private TimeDomain firingDomain;

    private long firingTime;

    /**
     * @param recordTime the event time of the record being processed (read only when asked)
     * @param emitTime sets the event time of what a firing timer emits
     * @param sideOutput where records emitted to a side output go
     */
    public KeyedFunctionDriver(
            KeyedProcessFunction<K, I, O> function,
            KeyedStateBackend backend,
            LongSupplier wallClockMillis,
            LongSupplier recordTime,
            LongConsumer emitTime,
            BiConsumer<OutputTag<?>, Object> sideOutput) {
        this.function = function;
        this.backend = backend;
        this.wallClockMillis = wallClockMillis;
        this.recordTime = recordTime;
        this.emitTime = emitTime;
        this.sideOutput = sideOutput;
    }

    /** Rebuilds the timers from (restored) keyed state, then opens the function. */
    public void open(KeyedRuntimeContext context) throws Exception {
        timers = new KeyedTimers(backend, wallClockMillis);
        function.open(context);
    }

    /** Processes a record whose key the caller has set as the backend's current key. */
    public void processElement(I record, Collector<O> out) throws Exception {
        function.processElement(record, this, out);
    }

    /** The watermark reached {@code watermark}: fires the event-time timers due. */
    public void advanceWatermark(long watermark, Collector<O> out) throws Exception {
        timers.advanceWatermark(watermark, (time, domain) -> fire(time, domain, out));
    }

    /** The wall clock reached {@code now}: fires the processing-time timers due. */
    public void advanceProcessingTime(long now, Collector<O> out) throws Exception {
        timers.advanceProcessingTime(now, (time, domain) -> fire(time, domain, out));
    }

    public long nextProcessingTimer() {
        return timers.nextProcessingTimer();
    }

    private void fire(long time, TimeDomain domain, Collector<O> out) throws Exception {
        firingDomain = domain;
        firingTime = time;
        emitTime.accept(domain == TimeDomain.EVENT_TIME ? time : Long.MIN_VALUE);
        try {
            function.onTimer(time, this, out);
        } finally {
            firingDomain = null;
        }
    }

    public void close() throws Exception {
        function.close();
    }

    @Override
    @SuppressWarnings("unchecked")
    public K currentKey() {
        return (K) backend.currentKey();
    }

    @Override
    public long timestamp() {
        if (firingDomain != null) {
            return firingDomain == TimeDomain.EVENT_TIME ? firingTime : Long.MIN_VALUE;
        }
        return recordTime.getAsLong();
    }

    @Override
    public TimerService timerService() {
        return timers;
    }

    @Override
    public <X> void output(OutputTag<X> tag, X value) {
        sideOutput.accept(tag, value);
    }

    /** The domain of the timer firing now; null while a record is processed. */
    @Override
    public TimeDomain timeDomain() {
        return firingDomain;
    }
}
