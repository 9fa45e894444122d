package dev.flowscale.flink.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * A real Flink MiniCluster in this JVM with its REST endpoint (and web submission) on loopback at a
 * free port: one task manager with {@code slots} slots, the adaptive or the default scheduler, and
 * savepoints in a temporary folder. Flink's REST API serves metrics at most 200 ms old (10 s by
 * default), so that short metrics windows see fresh counters.
 */
public final class LocalFlinkCluster implements AutoCloseable {
    private final MiniCluster cluster;
    private final URI rest;
    private final Path folder;

    private LocalFlinkCluster(MiniCluster cluster, URI rest, Path folder) {
        this.cluster = cluster;
        this.rest = rest;
        this.folder = folder;
    }

    public static LocalFlinkCluster start(int slots, boolean adaptive) throws Exception {
        Path folder = Files.createTempDirectory("flink-cluster");
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "0");
        conf.set(WebOptions.UPLOAD_DIR, folder.resolve("uploads").toString());
        conf.set(
                CheckpointingOptions.SAVEPOINT_DIRECTORY,
                folder.resolve("savepoints").toUri().toString());
        conf.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                folder.resolve("checkpoints").toUri().toString());
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
        // REST serves metrics at most this old (10 s by default): short windows in tests need fresh
        // ones
        conf.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofMillis(200));
        if (adaptive) {
            conf.set(JobManagerOptions.SCHEDULER, JobManagerOptions.SchedulerType.Adaptive);
            conf.set(JobManagerOptions.RESOURCE_STABILIZATION_TIMEOUT, Duration.ofMillis(200));
            conf.set(JobManagerOptions.SCHEDULER_SCALING_INTERVAL_MIN, Duration.ZERO);
        }
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(slots)
                                .build());
        cluster.start();
        LocalFlinkCluster started =
                new LocalFlinkCluster(cluster, cluster.getRestAddress().get(), folder);
        started.awaitLeader();
        return started;
    }

    /** REST answers 503 until the dispatcher has a leader; jar uploads need one. */
    private void awaitLeader() throws InterruptedException {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest overview = HttpRequest.newBuilder(rest.resolve("/jobs/overview")).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (client.send(overview, HttpResponse.BodyHandlers.discarding()).statusCode()
                        == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(
                "Flink's dispatcher at " + rest + " did not lead within 60 s; see Flink's log");
    }

    /** The REST endpoint, e.g. {@code http://127.0.0.1:41234}. */
    public URI rest() {
        return rest;
    }

    public MiniCluster cluster() {
        return cluster;
    }

    /**
     * Submits the word count directly (not through REST), named {@code word-count-<tag>} as its
     * jar's entry point names it; returns its job id.
     */
    public String submit(FlinkWordCount.Settings settings) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        FlinkWordCount.define(env, settings);
        StreamGraph stream = env.getStreamGraph();
        stream.setJobName(FlinkWordCount.jobName(settings.tag()));
        JobGraph graph = stream.getJobGraph();
        cluster.submitJob(graph).get();
        return graph.getJobID().toString();
    }

    /**
     * A jar whose entry class is {@link FlinkWordCount}: the classes themselves are on this JVM's
     * class path, as a session cluster has jobs' libraries in its lib folder.
     */
    public Path wordCountJar() throws IOException {
        Path jar = folder.resolve("word-count.jar");
        if (!Files.exists(jar)) {
            Manifest manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes()
                    .put(Attributes.Name.MAIN_CLASS, FlinkWordCount.class.getName());
            try (OutputStream out = Files.newOutputStream(jar);
                    JarOutputStream ignored = new JarOutputStream(out, manifest)) {
                // a manifest-only jar
            }
        }
        return jar;
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
