package dev.flowscale.engine.runtime;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.state.StateBackendConfig;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * How a job runs: batch and channel sizes (which bound memory under backpressure), flush timing,
 * whether instrumentation is on, and where meters go.
 *
 * @param batchSize records per batch handed between instances
 * @param channelCapacity batches a channel holds before its producer blocks
 * @param flushInterval longest time a partly filled batch waits in a busy operator
 * @param idleFlush how long an operator whose input ran dry waits for more before flushing
 * @param instrumented false turns off the DS2 counters (to measure their overhead)
 * @param rateWindow window of the rate gauges exported to the meter registry
 * @param meterRegistry where the job's meters are registered; null for none
 * @param checkpointing snapshot storage and interval; null turns checkpoints and savepoints off
 * @param restart what to do when a task fails
 * @param clock the wall clock of snapshot times and checkpoint statistics; null for UTC system time
 * @param stateBackend where keyed state lives (heap or RocksDB); null for the heap
 * @param latencyInterval how often each source instance emits a latency marker; zero (or null)
 *     turns latency tracking off, the default, as in Flink
 */
public record JobConfig(
        int batchSize,
        int channelCapacity,
        Duration flushInterval,
        Duration idleFlush,
        boolean instrumented,
        Duration rateWindow,
        MeterRegistry meterRegistry,
        CheckpointConfig checkpointing,
        RestartStrategy restart,
        Clock clock,
        StateBackendConfig stateBackend,
        Duration latencyInterval) {

    public JobConfig {
        check(batchSize >= 1 && batchSize <= 65_536, "batchSize", batchSize, "use 1..65536");
        check(channelCapacity >= 1, "channelCapacity", channelCapacity, "use at least 1");
        check(
                !flushInterval.isNegative() && !flushInterval.isZero(),
                "flushInterval",
                flushInterval,
                "use > 0");
        check(!idleFlush.isNegative(), "idleFlush", idleFlush, "use >= 0");
        check(
                !rateWindow.isNegative() && !rateWindow.isZero(),
                "rateWindow",
                rateWindow,
                "use > 0");
        restart = restart == null ? RestartStrategy.none() : restart;
        clock = clock == null ? Clock.systemUTC() : clock;
        stateBackend = stateBackend == null ? StateBackendConfig.heap() : stateBackend;
        latencyInterval = latencyInterval == null ? Duration.ZERO : latencyInterval;
        check(
                !latencyInterval.isNegative(),
                "latencyInterval",
                latencyInterval,
                "use > 0, or 0 to turn latency markers off");
    }

    /**
     * Where keyed state lives. Without a local directory of its own, RocksDB works in {@value
     * #LOCAL_STATE} of the job's snapshot storage (where its files can be hard-linked into
     * incremental checkpoints), or in java.io.tmpdir for a job without storage.
     */
    @Override
    public StateBackendConfig stateBackend() {
        return stateBackend.localDir() != null || checkpointing == null
                ? stateBackend
                : stateBackend.withLocalDir(checkpointing.storage().resolve(LOCAL_STATE));
    }

    /** The folder of the job's storage where RocksDB works unless told otherwise. */
    public static final String LOCAL_STATE = "rocksdb-work";

    public static JobConfig defaults() {
        return new JobConfig(
                512,
                4,
                Duration.ofMillis(50),
                Duration.ofNanos(200_000),
                true,
                Duration.ofSeconds(2),
                null,
                null,
                RestartStrategy.none(),
                Clock.systemUTC(),
                StateBackendConfig.heap(),
                Duration.ZERO);
    }

    public JobConfig withBatchSize(int size) {
        return with(parts -> parts.batchSize = size);
    }

    public JobConfig withChannelCapacity(int batches) {
        return with(parts -> parts.channelCapacity = batches);
    }

    public JobConfig withInstrumentation(boolean on) {
        return with(parts -> parts.instrumented = on);
    }

    public JobConfig withMeterRegistry(MeterRegistry registry) {
        return with(parts -> parts.meterRegistry = registry);
    }

    public JobConfig withRateWindow(Duration window) {
        return with(parts -> parts.rateWindow = window);
    }

    public JobConfig withCheckpointing(CheckpointConfig config) {
        return with(parts -> parts.checkpointing = config);
    }

    public JobConfig withRestartStrategy(RestartStrategy strategy) {
        return with(parts -> parts.restart = strategy);
    }

    public JobConfig withClock(Clock newClock) {
        return with(parts -> parts.clock = newClock);
    }

    private static void check(boolean ok, String field, Object value, String fix) {
        if (!ok) {
            throw new InvalidJobException(
                    "job config: " + field + " " + value + " is invalid; " + fix);
        }
    }

    /** Where keyed state lives: {@link StateBackendConfig#heap()} or a RocksDB configuration. */
    public JobConfig withStateBackend(StateBackendConfig backend) {
        return with(parts -> parts.stateBackend = backend);
    }

    /**
     * Latency markers every {@code interval} from each source instance (latency histograms per
     * source in every operator instance: docs/metrics.md); {@link Duration#ZERO} turns them off.
     */
    public JobConfig withLatencyTracking(Duration interval) {
        return with(parts -> parts.latencyInterval = interval);
    }

    /** Whether sources emit latency markers. */
    public boolean latencyTracking() {
        return !latencyInterval.isZero();
    }

    /** A copy of this configuration with the parts {@code change} sets. */
    private JobConfig with(Consumer<Parts> change) {
        Parts parts = new Parts(this);
        change.accept(parts);
        return parts.config();
    }

    /** The parts of a configuration as given (not resolved by the accessors), to copy it. */
    private static final class Parts {
        private int batchSize;
        private int channelCapacity;
        private Duration flushInterval;
        private Duration idleFlush;
        private boolean instrumented;
        private Duration rateWindow;
        private MeterRegistry meterRegistry;
        private CheckpointConfig checkpointing;
        private RestartStrategy restart;
        private Clock clock;
        private StateBackendConfig stateBackend;
        private Duration latencyInterval;

        Parts(JobConfig config) {
            batchSize = config.batchSize;
            channelCapacity = config.channelCapacity;
            flushInterval = config.flushInterval;
            idleFlush = config.idleFlush;
            instrumented = config.instrumented;
            rateWindow = config.rateWindow;
            meterRegistry = config.meterRegistry;
            checkpointing = config.checkpointing;
            restart = config.restart;
            clock = config.clock;
            stateBackend = config.stateBackend;
            latencyInterval = config.latencyInterval;
        }

        JobConfig config() {
            return new JobConfig(
                    batchSize,
                    channelCapacity,
                    flushInterval,
                    idleFlush,
                    instrumented,
                    rateWindow,
                    meterRegistry,
                    checkpointing,
                    restart,
                    clock,
                    stateBackend,
                    latencyInterval);
        }
    }
}
