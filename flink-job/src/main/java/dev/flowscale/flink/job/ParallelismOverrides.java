package dev.flowscale.flink.job;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.OperatorIDPair;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamGraphHasherV2;
import org.apache.flink.streaming.api.graph.StreamNode;

/**
 * Runs a Flink job with {@code pipeline.jobvertex-parallelism-overrides} applied by the job itself.
 *
 * <p>Why: Flink 2.0 to 2.3 submit a program run through {@code POST /jars/:jarid/run} (or in
 * application mode) as a <em>stream graph</em>, and their Dispatcher applies the overrides to
 * <em>job graphs</em> only (FLINK-38770): the job comes up at the parallelism its program sets, and
 * flowscale's savepoint path, which resubmits the job with the overrides in its configuration,
 * could not change it. A job that calls {@link #execute} instead of {@code env.execute(name)}
 * applies them to its own stream graph before submitting it; on a Flink that applies them itself
 * the result is the same.
 *
 * <p>A job vertex is a chain of operators at one parallelism; its id is its first operator's hash.
 * The override of a vertex is therefore set on every operator of its chain, so that the chain and
 * its id stay the same at the new parallelism.
 */
public final class ParallelismOverrides {
    private ParallelismOverrides() {}

    /**
     * Builds {@code env}'s stream graph, named {@code jobName}, sets the parallelism that the
     * overrides in {@code env}'s configuration name, and runs it.
     */
    public static JobExecutionResult execute(StreamExecutionEnvironment env, String jobName)
            throws Exception {
        Map<String, String> overrides =
                env.getConfiguration().get(PipelineOptions.PARALLELISM_OVERRIDES);
        StreamGraph probe = overrides.isEmpty() ? null : env.getStreamGraph(false);
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName(jobName);
        if (probe != null) {
            byStreamNode(probe, graph, overrides)
                    .forEach((node, p) -> graph.getStreamNode(node).setParallelism(p));
        }
        return env.execute(graph);
    }

    /**
     * The parallelism of every stream node of {@code graph} (by id) in a job vertex that {@code
     * overrides} (vertex id in hex → parallelism) names; vertices it does not name are left out.
     * The vertices are those of {@code probe}, another stream graph of the same program (building a
     * job graph is left to Flink for the graph it runs); nodes are matched by their hash, the
     * operator id Flink derives from the uid or the graph's shape, because node ids differ between
     * two graphs of one program (a sink's writer and committer are new transformations each time).
     *
     * @throws IllegalArgumentException an override that is not a positive number, or above its
     *     operator's max parallelism
     */
    public static Map<Integer, Integer> byStreamNode(
            StreamGraph probe, StreamGraph graph, Map<String, String> overrides) {
        Map<OperatorID, Integer> nodeOf = new HashMap<>();
        new StreamGraphHasherV2()
                .traverseStreamGraphAndGenerateHashes(graph)
                .forEach((node, hash) -> nodeOf.put(new OperatorID(hash), node));
        Map<Integer, Integer> result = new HashMap<>();
        for (JobVertex vertex : probe.getJobGraph().getVertices()) {
            String override = overrides.get(vertex.getID().toHexString());
            if (override == null) {
                continue;
            }
            int parallelism = parse(vertex, override);
            for (OperatorIDPair operator : vertex.getOperatorIDs()) {
                Integer node = nodeOf.get(operator.getGeneratedOperatorID());
                if (node != null) {
                    check(graph.getStreamNode(node), vertex, parallelism);
                    result.put(node, parallelism);
                }
            }
        }
        return result;
    }

    private static int parse(JobVertex vertex, String override) {
        try {
            int parallelism = Integer.parseInt(override.trim());
            if (parallelism > 0) {
                return parallelism;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                PipelineOptions.PARALLELISM_OVERRIDES.key()
                        + " gives vertex "
                        + vertex.getID()
                        + " ('"
                        + vertex.getName()
                        + "') the parallelism '"
                        + override
                        + "'; use a positive whole number");
    }

    private static void check(StreamNode node, JobVertex vertex, int parallelism) {
        int max = node.getMaxParallelism();
        if (max > 0 && parallelism > max) {
            throw new IllegalArgumentException(
                    PipelineOptions.PARALLELISM_OVERRIDES.key()
                            + " gives vertex "
                            + vertex.getID()
                            + " ('"
                            + vertex.getName()
                            + "') parallelism "
                            + parallelism
                            + ", above its operator '"
                            + node.getOperatorName()
                            + "''s max parallelism "
                            + max
                            + "; use at most "
                            + max);
        }
    }
}
