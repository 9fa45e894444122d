package dev.flowscale.bench;

import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.CheckpointType;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;

/**
 * The same keyed job on Flink 2.3 in local mode (a MiniCluster in this JVM): a rate-limited
 * generator (parallelism 1), keyed by sequence number modulo the key count into a function that
 * keeps one 1,000-byte value per key, max parallelism 128 (flowscale's key-group count). The
 * checkpoint is a triggered one (incremental on RocksDB, as flowscale's); a rescale is
 * stop-with-savepoint (canonical format), then the job submitted again at the new parallelism from
 * that savepoint, its downtime ending at the first record the restored function processes.
 */
final class FlinkStateJob {
    static final AtomicLong PROCESSED = new AtomicLong();
    static final AtomicLong FIRST_RECORD = new AtomicLong();

    private FlinkStateJob() {}

    static StateComparisonRun.Result run(boolean rocksdb, long keys, long rate, Path dir)
            throws Exception {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, rocksdb ? "rocksdb" : "hashmap");
        conf.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                dir.resolve("checkpoints").toUri().toString());
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, rocksdb);
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, 8);
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(8)
                                .build());
        cluster.start();
        try {
            JobID job = cluster.submitJob(graph(conf, keys, rate, 2, null)).get().getJobID();
            while (PROCESSED.get() < keys) {
                checkRunning(cluster, job);
                Thread.sleep(20);
            }
            long t0 = System.nanoTime();
            cluster.triggerCheckpoint(job, CheckpointType.CONFIGURED).get();
            long checkpointMs = (System.nanoTime() - t0) / 1_000_000;
            Rescaled p1 = rescale(cluster, conf, job, keys, rate, 3, dir);
            Rescaled p2 = rescale(cluster, conf, p1.next(), keys, rate, 6, dir);
            return new StateComparisonRun.Result(
                    checkpointMs, p1.savepointBytes(), p1.downMs(), p2.downMs());
        } finally {
            cluster.close();
        }
    }

    /** Throws the job's failure if it ended. */
    private static void checkRunning(MiniCluster cluster, JobID job) throws Exception {
        if (cluster.getJobStatus(job).get().isGloballyTerminalState()) {
            throw new IllegalStateException(
                    "Flink job ended: "
                            + cluster.requestJobResult(job)
                                    .get()
                                    .getSerializedThrowable()
                                    .map(t -> t.getFullStringifiedStackTrace())
                                    .orElse("no failure"));
        }
    }

    /** One rescale: its downtime, its savepoint's size and the restored job. */
    private record Rescaled(long downMs, long savepointBytes, JobID next) {}

    /** Stop-with-savepoint, then the job submitted again at {@code to} from that savepoint. */
    private static Rescaled rescale(
            MiniCluster cluster,
            Configuration conf,
            JobID job,
            long keys,
            long rate,
            int to,
            Path dir)
            throws Exception {
        long t0;
        String savepoint;
        while (true) {
            // Refused while a restored job's tasks are still being deployed: retried, timed anew.
            t0 = System.nanoTime();
            try {
                savepoint =
                        cluster.stopWithSavepoint(
                                        job,
                                        dir.resolve("savepoints").toUri().toString(),
                                        false,
                                        SavepointFormatType.CANONICAL)
                                .get();
                break;
            } catch (ExecutionException e) {
                if (!String.valueOf(e.getMessage()).contains("not being executed")) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
        while (!cluster.getJobStatus(job).get().isGloballyTerminalState()) {
            Thread.sleep(5);
        }
        FIRST_RECORD.set(0);
        JobID next = cluster.submitJob(graph(conf, keys, rate, to, savepoint)).get().getJobID();
        while (FIRST_RECORD.get() == 0) {
            checkRunning(cluster, next);
            Thread.sleep(1);
        }
        long down = (FIRST_RECORD.get() - t0) / 1_000_000;
        long bytes = StateComparisonRun.size(Path.of(java.net.URI.create(savepoint)));
        return new Rescaled(down, bytes, next);
    }

    private static JobGraph graph(
            Configuration conf, long keys, long rate, int parallelism, String savepoint) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setMaxParallelism(128);
        env.enableCheckpointing(3_600_000);
        DataGeneratorSource<Long> source =
                new DataGeneratorSource<>(
                        seq -> seq,
                        Long.MAX_VALUE,
                        RateLimiterStrategy.perSecond(rate),
                        Types.LONG);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "keys")
                .uid("keys")
                .setParallelism(1)
                .keyBy(seq -> seq % keys, Types.LONG)
                .process(new Store())
                .returns(Types.LONG)
                .uid("store")
                .setParallelism(parallelism)
                .sinkTo(new DiscardingSink<>())
                .uid("sink")
                .setParallelism(parallelism);
        JobGraph graph = env.getStreamGraph().getJobGraph();
        if (savepoint != null) {
            graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(savepoint));
        }
        return graph;
    }

    /** Keeps a 1,000-byte value per key, as {@link SavepointBenchmark.Store} does. */
    static final class Store extends KeyedProcessFunction<Long, Long, Long> {
        private transient ValueState<String> payload;

        @Override
        public void open(OpenContext context) {
            payload =
                    getRuntimeContext()
                            .getState(new ValueStateDescriptor<>("payload", String.class));
        }

        @Override
        public void processElement(Long seq, Context context, Collector<Long> out)
                throws Exception {
            FIRST_RECORD.compareAndSet(0, System.nanoTime());
            PROCESSED.incrementAndGet();
            StringBuilder value = new StringBuilder(1000);
            String prefix = Long.toString(seq);
            while (value.length() < 1000) {
                value.append(prefix).append('-');
            }
            value.setLength(1000);
            payload.update(value.toString());
        }
    }
}
