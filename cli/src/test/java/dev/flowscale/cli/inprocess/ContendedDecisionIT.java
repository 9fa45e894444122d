package dev.flowscale.cli.inprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.window.WindowRates;
import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.testsupport.Await;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Contention seen, not mistaken for load. An operator that does a fixed amount of CPU work per
 * record ({@link SyntheticCost#cpu}: its cost in thread CPU time, as a real operator does; a
 * wall-clock deadline would absorb the time its thread waits for a core) runs once on the machine
 * as it is and once with {@value #BUSY_PER_CORE} spinning threads per core in a JVM the test
 * starts. Its wall-clock useful time grows under that load by the time it waited for a core; with
 * the core-wait correction the policy decides as on the machine without the added load and says the
 * job is CPU-starved.
 *
 * <p>The numbers: {@value #CPU_PER_RECORD_MICROS} µs of CPU per record, so an instance carries
 * about 500 records/s; the source offers {@value #RATE} records/s and the policy plans at {@value
 * #UTILIZATION} utilization without catch-up or learned curves, so DS2's need is 1.1 instances: the
 * decision is 2 for any measured capacity from 0.55× to 1.1× the nominal one, and only decisions
 * are compared, never times.
 *
 * <p>Tagged {@code alone}: the build runs it after the module's other ITs, with nothing beside it
 * (cli/pom.xml), so the machine as it is is the machine without another test's job on it.
 */
@Tag("alone")
class ContendedDecisionIT {
    private static final String SOURCE = "source";
    private static final String WORK = "work";
    private static final int CPU_PER_RECORD_MICROS = 2_000;
    private static final double RATE = 440;
    private static final double UTILIZATION = 0.8;
    private static final int BUSY_PER_CORE = 4;
    private static final Duration WINDOW = Duration.ofSeconds(6);

    /**
     * The most the work operator may wait for a core before the test adds load. Where the machine
     * is already loaded several times over (a full build beside it), a thread that blocks inside
     * useful time on a lock held by a preempted thread, or at a safepoint, is not waiting for a
     * core either, and such stalls take a share of its useful time that no wait correction sees:
     * under a load of 13 on 2 cores plus the test's own, the corrected capacity read 0.2-0.9× the
     * nominal one. The test is then skipped, naming the wait it found.
     */
    private static final double MAX_WAIT_AS_IS = 0.5;

    /** Windows measured as the machine is before the test gives up finding it quiet enough. */
    private static final int QUIET_ATTEMPTS = 4;

    @Test
    void aLoadedMachineGetsTheDecisionOfAnUnloadedOneAndIsToldItIsCpuStarved() throws Exception {
        JobGraph graph = job();

        // Another module's tests may still be running beside this one (the build runs modules two
        // at a time): the window as the machine is is measured again, a few times, until one finds
        // the operator waiting for a core no more than the test can correct.
        MetricsSample[] unloaded = window(graph);
        Double waitedAsIs = measured(unloaded).coreWaitShare();
        for (int attempt = 1; attempt < QUIET_ATTEMPTS && !quietEnough(waitedAsIs); attempt++) {
            unloaded = window(graph);
            waitedAsIs = measured(unloaded).coreWaitShare();
        }
        assumeTrue(
                quietEnough(waitedAsIs),
                "the machine as it is already kept the work operator waiting for a core "
                        + waitedAsIs
                        + " of its useful time; run the test where it waits at most "
                        + MAX_WAIT_AS_IS);
        MetricsSample[] loaded;
        try (BusyThreads busy =
                BusyThreads.start(BUSY_PER_CORE * Runtime.getRuntime().availableProcessors())) {
            loaded = window(graph);
        }

        ScalingDecision asIs = decide(unloaded, true);
        ScalingDecision contended = decide(loaded, true);
        ScalingDecision uncorrected = decide(loaded, false);
        assertThat(work(asIs)).as(asIs.explain()).isEqualTo(2);
        assertThat(work(contended)).as(contended.explain()).isEqualTo(work(asIs));
        assertThat(contended.reasons())
                .as(contended.explain())
                .anyMatch(r -> r.startsWith("CPU-starved"));
        // the load was real: read as wall-clock useful time it would have scaled further
        assertThat(work(uncorrected)).as(uncorrected.explain()).isGreaterThan(work(asIs));
    }

    private static boolean quietEnough(Double coreWaitShare) {
        return coreWaitShare != null && coreWaitShare <= MAX_WAIT_AS_IS;
    }

    private static JobGraph job() {
        JobBuilder job = JobBuilder.named("contended");
        job.source(SOURCE, Sources.generator(RateProfile.constant(RATE), seq -> seq))
                .map(WORK, seq -> seq)
                .disableChaining()
                .sink("sink", Sinks.counting());
        job.cost(WORK, SyntheticCost.cpu(Duration.ofNanos(CPU_PER_RECORD_MICROS * 1_000L)));
        return job.build();
    }

    /**
     * A window of {@link #WINDOW} or more over the running job, begun once the work operator has
     * processed records for a while (its code compiled, its input backlogged).
     */
    private static MetricsSample[] window(JobGraph graph) throws Exception {
        try (RunningJob job = RunningJob.start(graph, JobConfig.defaults())) {
            InProcessMetricsSource metrics =
                    new InProcessMetricsSource(() -> job, Clock.systemUTC());
            MetricsSample from =
                    Await.until(
                            Duration.ofSeconds(60),
                            "the work operator processing records",
                            metrics::sample,
                            s -> processed(s) >= 100);
            MetricsSample to =
                    Await.until(
                            Duration.ofSeconds(60),
                            "a window of " + WINDOW,
                            metrics::sample,
                            s -> !s.time().isBefore(from.time().plus(WINDOW)));
            return new MetricsSample[] {from, to};
        }
    }

    private static OperatorMetrics measured(MetricsSample[] samples) {
        return WindowRates.between(samples[0], samples[1]).window().metrics(WORK).orElseThrow();
    }

    private static long processed(MetricsSample s) {
        return s.instancesOf(WORK).stream().mapToLong(i -> i.recordsIn()).sum();
    }

    private static ScalingDecision decide(MetricsSample[] samples, boolean corrected) {
        WindowRates.Result window = WindowRates.between(samples[0], samples[1]);
        assertThat(window.problems()).isEmpty();
        PolicyConfig config =
                PolicyConfig.builder()
                        .warmUp(Duration.ofSeconds(1))
                        .catchUpDuration(Duration.ZERO)
                        .targetUtilization(UTILIZATION)
                        .learnScalability(false)
                        .confirmNeed(false)
                        .coreWaitCorrection(corrected)
                        .build();
        ScalingDecision decision =
                new Ds2Policy(config, Clock.fixed(samples[1].time(), ZoneOffset.UTC))
                        .decide(samples[1].topology(), window.window(), ScalingHistory.empty());
        assertThat(decision.outcome()).as(decision.explain()).isNotEqualTo(Outcome.BLOCKED);
        return decision;
    }

    private static int work(ScalingDecision decision) {
        return decision.operators().get(WORK).recommendedParallelism();
    }
}
