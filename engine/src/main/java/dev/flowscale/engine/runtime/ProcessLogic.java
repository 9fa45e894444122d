package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.CheckpointListener;
import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.ProcessFunction;
import java.time.Clock;

/**
 * Runs a non-keyed {@link ProcessFunction}, and is its context: the current record's event time is
 * the task output's (set per record in jobs with event time), the watermark the last one the
 * instance advanced to.
 */
final class ProcessLogic implements OperatorLogic, ProcessFunction.Context {
    private final ProcessFunction<Object, Object> function;
    private final TaskContext.UserContext context;
    private final Clock clock;
    private TaskOutput output;
    private long watermark = Long.MIN_VALUE;

    ProcessLogic(
            ProcessFunction<Object, Object> function,
            TaskContext.UserContext context,
            Clock clock) {
        this.function = function;
        this.context = context;
        this.clock = clock;
    }

    @Override
    public void connect(TaskOutput out) {
        this.output = out;
    }

    @Override
    public void open() throws Exception {
        function.open(context);
    }

    @Override
    public void process(Object record, Collector<Object> out) throws Exception {
        function.processElement(record, this, out);
    }

    @Override
    public void onWatermark(long advanced, TaskOutput out) {
        watermark = advanced;
    }

    @Override
    public long timestamp() {
        return output.timestamp;
    }

    @Override
    public long currentWatermark() {
        return watermark;
    }

    @Override
    public long currentProcessingTime() {
        return clock.millis();
    }

    @Override
    public void snapshotState(long checkpointId) throws Exception {
        function.snapshotState(checkpointId);
    }

    @Override
    public boolean commitsOnCheckpoints() {
        return function instanceof CheckpointListener;
    }

    @Override
    public void checkpointComplete(long checkpointId) throws Exception {
        if (function instanceof CheckpointListener listener) {
            listener.notifyCheckpointComplete(checkpointId);
        }
    }

    @Override
    public void close() throws Exception {
        function.close();
    }
}
