package dev.flowscale.engine.examples;

import dev.flowscale.engine.api.SinkFunction;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.job.DataStream;
import dev.flowscale.engine.job.JobBuilder;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A source, a chain of map operators each with its own synthetic per-record cost, and a sink: the
 * shape for watching how parallelism changes throughput.
 */
public final class CostChain {
    public static final String SOURCE = "source";
    public static final String SINK = "sink";

    private CostChain() {}

    /** One stage of the chain: an operator id and its per-record cost. */
    public record Stage(String id, SyntheticCost cost) {}

    public static JobBuilder build(
            String jobName,
            SourceFunction<Long> source,
            List<Stage> stages,
            SinkFunction<? super Long> sink) {
        JobBuilder job = JobBuilder.named(jobName);
        DataStream<Long> stream = job.source(SOURCE, source);
        for (Stage stage : stages) {
            stream = stream.map(stage.id(), (Long x) -> x + 1).cost(stage.cost());
        }
        stream.sink(SINK, sink);
        return job;
    }

    /** {@code n} stages named map1..mapN, all with the same cost. */
    public static List<Stage> uniform(int n, SyntheticCost cost) {
        return IntStream.rangeClosed(1, n).mapToObj(i -> new Stage("map" + i, cost)).toList();
    }
}
