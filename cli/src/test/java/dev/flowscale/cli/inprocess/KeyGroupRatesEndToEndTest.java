package dev.flowscale.cli.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.autoscaler.metrics.MetricsSample;
import dev.flowscale.autoscaler.metrics.MetricsSource;
import dev.flowscale.autoscaler.metrics.RunnerHttpMetricsSource;
import dev.flowscale.autoscaler.window.WindowSettings;
import dev.flowscale.autoscaler.window.WindowStatus;
import dev.flowscale.autoscaler.window.WindowedMetricsProvider;
import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.SourceFunction;
import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sources;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runner.JobRunnerApi;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.engine.source.RateProfile;
import dev.flowscale.engine.state.KeyGroups;
import dev.flowscale.engine.testing.HotKeyJob;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import dev.flowscale.testsupport.Await;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Per-key-group rates end to end on the real engine: a keyed job whose input has one hot key is
 * sampled through the in-process source and through the runner's HTTP API; the collector's window
 * carries every key group's rate, the counts match the records sent exactly, and the policy's
 * decision on the window names the hot key group.
 */
class KeyGroupRatesEndToEndTest {
    private static final int KEY_GROUPS = 32;
    private static final long RECORDS = 6_000;
    private static final Duration WINDOW = Duration.ofMillis(500);

    /** Opened once the window's first sample is taken: the source emits nothing before it. */
    private final CountDownLatch firstSampleTaken = new CountDownLatch(1);

    @Test
    void theInProcessWindowShowsTheHotKeyGroupAndThePolicyNamesIt() throws Exception {
        try (RunningJob job =
                skewedJob(JobBuilder.named("hotkey-inproc")).start(JobConfig.defaults())) {
            checkWindowAndDecision(new InProcessMetricsSource(() -> job, Clock.systemUTC()));
        }
    }

    @Test
    void theRunnerHttpWindowShowsTheHotKeyGroupAndThePolicyNamesIt() throws Exception {
        try (RunningJob job =
                        skewedJob(JobBuilder.named("hotkey-http")).start(JobConfig.defaults());
                MetricsHttpServer server =
                        MetricsHttpServer.start(
                                "127.0.0.1",
                                0,
                                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) {
            new JobRunnerApi(Clock.systemUTC()).serveOn(server).attach(job);
            checkWindowAndDecision(
                    new RunnerHttpMetricsSource(
                            URI.create("http://127.0.0.1:" + server.port()),
                            Duration.ofSeconds(5)));
        }
    }

    private JobBuilder skewedJob(JobBuilder job) {
        SourceFunction<Long> records =
                Sources.replayable(
                        RateProfile.steps(List.of(new RateProfile.Step(0, 4000))),
                        RECORDS,
                        seq -> seq);
        return HotKeyJob.build(job, context -> gated(records.createReader(context)), KEY_GROUPS, 2);
    }

    /**
     * The reader, silent until the window's first sample is taken: on a loaded machine a source
     * that starts after a fixed delay may have sent everything before that sample, leaving the
     * window with no useful time (and so no rate).
     */
    private SourceReader<Long> gated(SourceReader<Long> reader) {
        return new SourceReader<>() {
            @Override
            public int poll(Collector<Long> out, int max) throws Exception {
                return firstSampleTaken.getCount() > 0 ? 0 : reader.poll(out, max);
            }

            @Override
            public long nanosUntilNext() {
                return firstSampleTaken.getCount() > 0 ? 1_000_000L : reader.nanosUntilNext();
            }

            @Override
            public void close() throws Exception {
                reader.close();
            }
        };
    }

    private void checkWindowAndDecision(MetricsSource source) throws Exception {
        WindowedMetricsProvider provider =
                new WindowedMetricsProvider(
                        source, new WindowSettings(WINDOW, Duration.ZERO), List.of());
        // A source reports no backlog signal until its task has started: a window must not begin
        // before that (its offered rate would be unknown and the policy would hold).
        MetricsSample first =
                Await.until(
                        Duration.ofSeconds(60),
                        "the source to report its backlog",
                        source::sample,
                        s ->
                                s.instance(HotKeyJob.SOURCE, 0)
                                        .map(c -> c.backlog() != null)
                                        .orElse(false));
        provider.add(first);
        firstSampleTaken.countDown();
        MetricsSample last = awaitAllProcessed(source, first.time().plus(WINDOW));
        WindowStatus status = provider.add(last);
        assertThat(status.complete()).as(status.reasons().toString()).isTrue();
        MetricsWindow window = provider.currentWindow().orElseThrow();
        long[] sent = HotKeyJob.sentPerKeyGroup(RECORDS, KEY_GROUPS);
        int hot = KeyGroups.keyGroupFor(HotKeyJob.HOT_KEY, KEY_GROUPS);

        assertThat(countsPerKeyGroup(last))
                .as("counted per key group = sent per key group")
                .containsExactly(sent);
        List<Double> rates = window.operators().get(HotKeyJob.KEYED).keyGroupRates();
        assertThat(rates).hasSize(KEY_GROUPS);
        assertThat(window.operators().get(HotKeyJob.SOURCE).keyGroupRates()).isEmpty();
        long[] inWindow = countsPerKeyGroup(last);
        long[] before = countsPerKeyGroup(first);
        for (int g = 0; g < KEY_GROUPS; g++) {
            inWindow[g] -= before[g];
        }
        assertThat(ratesTimesObservedTime(rates, first, last))
                .as("the window's rates give its counts back")
                .containsExactly(inWindow);
        double total = rates.stream().mapToDouble(Double::doubleValue).sum();
        assertThat(rates.get(hot) / total)
                .as("hot key group's share of the window's rate")
                .isCloseTo(sent[hot] / (double) RECORDS, org.assertj.core.data.Offset.offset(0.02));

        PolicyConfig skewAware = PolicyConfig.builder().skewCorrection(true).build();
        ScalingDecision decision =
                new Ds2Policy(skewAware, Clock.fixed(window.end(), ZoneOffset.UTC))
                        .decide(last.topology(), window, ScalingHistory.empty());
        assertThat(decision.operators()).as(decision.toString()).containsKey(HotKeyJob.KEYED);
        OperatorDecision keyed = decision.operators().get(HotKeyJob.KEYED);
        // Hot key groups are named hottest first; a few lukewarm ones may follow the hot one.
        assertThat(keyed.reasons())
                .anySatisfy(
                        r -> assertThat(r).containsPattern("hot key groups \\[" + hot + "[],]"));
    }

    /** A sample once every record went through 'keyed', taken no earlier than {@code notBefore}. */
    private static MetricsSample awaitAllProcessed(MetricsSource source, Instant notBefore) {
        return Await.until(
                Duration.ofSeconds(15),
                "all " + RECORDS + " records processed by 'keyed'",
                source::sample,
                s ->
                        !s.time().isBefore(notBefore)
                                && s.instancesOf(HotKeyJob.KEYED).stream()
                                                .mapToDouble(InstanceCounts::recordsIn)
                                                .sum()
                                        == RECORDS);
    }

    private static long[] countsPerKeyGroup(MetricsSample sample) {
        long[] counts = new long[KEY_GROUPS];
        for (InstanceCounts c : sample.instancesOf(HotKeyJob.KEYED)) {
            System.arraycopy(
                    c.keyGroupRecords(), 0, counts, c.keyGroupFirst(), c.keyGroupRecords().length);
        }
        return counts;
    }

    /**
     * Each key group's rate times its instance's observed time in the window: the records counted.
     */
    private static long[] ratesTimesObservedTime(
            List<Double> rates, MetricsSample from, MetricsSample to) {
        long[] counted = new long[KEY_GROUPS];
        for (InstanceCounts end : to.instancesOf(HotKeyJob.KEYED)) {
            InstanceCounts start = from.instance(HotKeyJob.KEYED, end.instance()).orElseThrow();
            double seconds = Counters.seconds(end.observedNanos() - start.observedNanos());
            for (int j = 0; j < end.keyGroupRecords().length; j++) {
                counted[end.keyGroupFirst() + j] =
                        Math.round(rates.get(end.keyGroupFirst() + j) * seconds);
            }
        }
        return counted;
    }
}
