package dev.flowscale.cli.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.loop.JobAutoscaler;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.examples.CostChain;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.testsupport.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The policy must decide the same whether the engine chains a job's operators or runs each on a
 * thread of its own: chained operators report their own true rates (a sampled share of the chain's
 * useful time), so a decision is never changed by how the job happens to be chained. The job: a
 * source at 300 records/s and three operators costing 0.3, 3 and 0.3 ms per record (parked, no
 * CPU), all at parallelism 2. Planned at 70 % utilization, the 3 ms operator (at most 333 records/s
 * per instance, less on a loaded machine) needs 2 instances and the others 1, with margin on either
 * side of each rounding.
 */
class ChainedDecisionTest {
    private static final JobAutoscaler.Settings SETTINGS =
            new JobAutoscaler.Settings(
                    AutoscalerConfig.of(Mode.RECOMMEND, Duration.ofMillis(1)),
                    PolicyConfig.builder()
                            .warmUp(Duration.ofSeconds(1))
                            .targetUtilization(0.7)
                            .build(),
                    Duration.ofSeconds(3));

    @Test
    void thePolicyDecidesTheSameForAChainedJobAndTheSameJobUnchained() throws Exception {
        JobGraph graph = job();
        Map<String, Integer> chained = decide(graph);
        Map<String, Integer> unchained = decide(graph.unchained());

        assertThat(chained).isEqualTo(unchained);
        assertThat(chained).containsEntry("heavy", 2).containsEntry("light", 1);
    }

    private static JobGraph job() {
        List<CostChain.Stage> stages =
                List.of(
                        new CostChain.Stage("light", SyntheticCost.parse("blocking:300us")),
                        new CostChain.Stage("heavy", SyntheticCost.parse("blocking:3ms")),
                        new CostChain.Stage("last", SyntheticCost.parse("blocking:300us")));
        return CostChain.build(
                        "decided",
                        Sources.generator(RateProfile.constant(300), seq -> seq),
                        stages,
                        Sinks.counting())
                .parallelism(CostChain.SOURCE, 2)
                .parallelism("light", 2)
                .parallelism("heavy", 2)
                .parallelism("last", 2)
                .parallelism(CostChain.SINK, 2)
                .build();
    }

    /** The new parallelism per operator of the first decision on a complete window. */
    private static Map<String, Integer> decide(JobGraph graph) throws Exception {
        try (RunningJob job = RunningJob.start(graph, JobConfig.defaults())) {
            Clock clock = Clock.systemUTC();
            JobAutoscaler autoscaler =
                    new JobAutoscaler(
                            SETTINGS,
                            new InProcessMetricsSource(() -> job, clock),
                            decision -> CompletableFuture.completedFuture(null),
                            List.of(),
                            new JobAutoscaler.Reporting(
                                    new SimpleMeterRegistry(),
                                    null,
                                    clock,
                                    Throwable::printStackTrace));
            ScalingDecision decision =
                    Await.until(
                                    Duration.ofSeconds(40),
                                    "a decision on a complete metrics window",
                                    autoscaler::tick,
                                    d ->
                                            d.isPresent()
                                                    && !d.get()
                                                            .blockReason()
                                                            .equals(
                                                                    Optional.of(
                                                                            BlockReason
                                                                                    .METRICS_MISSING)))
                            .orElseThrow();
            assertThat(decision.outcome()).as(decision.explain()).isNotEqualTo(Outcome.BLOCKED);
            return decision.newParallelism();
        }
    }
}
