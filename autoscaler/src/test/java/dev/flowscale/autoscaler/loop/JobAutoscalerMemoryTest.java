package dev.flowscale.autoscaler.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.state.HistoryStore;
import dev.flowscale.autoscaler.testing.InMemoryHistoryStore;
import dev.flowscale.autoscaler.testing.Samples;
import dev.flowscale.autoscaler.testing.TestingMetricsSource;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.sim.ManualClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A job's autoscaler keeps its memory in its {@link HistoryStore}: stored after each decision
 * (never on a tick that decided nothing), loaded by the next loop of the job, which keeps the
 * stored decisions and the policy interval's cadence.
 */
class JobAutoscalerMemoryTest {
    static final Duration INTERVAL = Duration.ofSeconds(2);
    final ManualClock clock = new ManualClock(Samples.T0);
    final List<Throwable> errors = new ArrayList<>();
    final InMemoryHistoryStore store = new InMemoryHistoryStore();

    @Test
    void eachDecisionIsStoredAndTheNextLoopResumesFromIt() {
        JobAutoscaler first = autoscaler(source(4), store);
        Optional<ScalingDecision> decided = first.tick();
        clock.advance(Duration.ofSeconds(1));
        Optional<ScalingDecision> none = first.tick();
        clock.advance(Duration.ofSeconds(1));
        first.tick();

        assertThat(decided).isPresent();
        assertThat(none).isEmpty();
        assertThat(store.saves()).as("one store per decision").isEqualTo(2);

        JobAutoscaler next = autoscaler(source(2), store);
        ScalingHistory resumed = next.loop().history();
        assertThat(resumed.decisions())
                .containsExactlyElementsOf(first.loop().history().decisions());
        clock.advance(Duration.ofSeconds(1));
        assertThat(next.tick()).as("the stored cadence: the next decision is due at 4 s").isEmpty();
        clock.advance(Duration.ofSeconds(1));
        assertThat(next.tick()).isPresent();
        assertThat(next.loop().history().decisions()).hasSize(3);
        assertThat(errors).isEmpty();
    }

    @Test
    void aStoreThatCannotBeReadIsReportedAndTheLoopStartsAfresh() {
        HistoryStore broken =
                new HistoryStore() {
                    @Override
                    public Optional<ScalingHistory> load() {
                        throw new IllegalStateException(
                                "ConfigMap jobs/wc-autoscaler is unreadable");
                    }

                    @Override
                    public void save(ScalingHistory history) {}
                };

        JobAutoscaler loop = autoscaler(source(1), broken);

        assertThat(errors)
                .singleElement()
                .satisfies(e -> assertThat(e).hasMessageContaining("unreadable"));
        assertThat(loop.loop().history().decisions()).isEmpty();
        assertThat(loop.tick()).isPresent();
    }

    private TestingMetricsSource source(int samples) {
        TestingMetricsSource source = new TestingMetricsSource();
        for (int i = 0; i < samples; i++) {
            source.then(
                    Samples.at(i)
                            .source(100.0 * i, 0.1 * i, i, 0)
                            .map(0, 50.0 * i, 50.0 * i, 0.5 * i, i)
                            .map(1, 50.0 * i, 50.0 * i, 0.5 * i, i)
                            .build());
        }
        return source;
    }

    private JobAutoscaler autoscaler(TestingMetricsSource source, HistoryStore memory) {
        return new JobAutoscaler(
                new JobAutoscaler.Settings(
                        AutoscalerConfig.of(Mode.RECOMMEND, INTERVAL),
                        PolicyConfig.exactDs2(),
                        INTERVAL),
                p -> p,
                source,
                decision -> new CompletableFuture<>(),
                List.of(),
                new JobAutoscaler.Reporting(
                        new SimpleMeterRegistry(), "jobs/wc", clock, errors::add),
                memory);
    }
}
