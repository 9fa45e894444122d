package dev.flowscale.autoscaler.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.autoscaler.state.HistoryStore;
import dev.flowscale.policy.api.AutoscalerConfig;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.Mode;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.ScalingRealizer;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.loop.AutoscalerLoop;
import dev.flowscale.policy.settings.Setting;
import dev.flowscale.policy.settings.SettingValues;
import dev.flowscale.policy.sim.DataflowModel;
import dev.flowscale.policy.sim.ManualClock;
import dev.flowscale.policy.sim.RateProfile;
import dev.flowscale.policy.sim.Scenario;
import dev.flowscale.policy.sim.SimOperator;
import dev.flowscale.policy.sim.SimulatedMetrics;
import dev.flowscale.policy.sim.SimulatedRealizer;
import dev.flowscale.policy.sim.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What every {@link HistoryStore} must do, shared by each one's test: a loop of a job restarted
 * from the store (a new loop object, as after an operator restart, or in the next leader: {@link
 * #nextProcess}) makes the same next decisions as the loop that kept running. The job is a
 * simulated word count whose load doubles after ten minutes, with a rescale budget of one an hour
 * that its first scale-up used: the stored budget holds the second scale-up back, which a loop
 * started without the memory makes, and the stored rescale gives the measured downtime.
 */
public abstract class HistoryStoreContract {
    static final Duration STEP = Duration.ofSeconds(1);
    static final Duration INTERVAL = Duration.ofSeconds(30);
    final ManualClock clock = new ManualClock(Simulation.EPOCH);
    final DataflowModel model = new DataflowModel(wordCount(), clock, 2, 0, 42);

    /** The store of the job "wc" as the running loop's process sees it. */
    protected abstract HistoryStore store();

    /**
     * The store of the same job as another process sees it (a restarted operator, a new leader).
     */
    protected abstract HistoryStore nextProcess();

    @Test
    void nothingStoredLoadsNothing() {
        assertThat(store().load()).isEmpty();
    }

    @Test
    void aLoopRestartedFromTheStoreDecidesAsTheOneThatKeptRunning() {
        List<ScalingDecision> kept = new ArrayList<>();
        AutoscalerLoop running = loop(kept, new SimulatedRealizer(model, Duration.ofSeconds(10)));
        HistoryStore store = store();
        for (long i = 0; i < Duration.ofMinutes(11).plusSeconds(15).dividedBy(STEP); i++) {
            int decided = kept.size();
            step(running);
            if (kept.size() > decided) {
                store.save(running.history()); // as a JobAutoscaler after each decision
            }
        }
        assertThat(running.history().rescales()).as("the first scale-up").hasSize(1);

        List<ScalingDecision> restored = new ArrayList<>();
        AutoscalerLoop restarted = loop(restored, decision -> new CompletableFuture<>());
        restarted.restore(nextProcess().load().orElseThrow());
        List<ScalingDecision> fresh = new ArrayList<>();
        AutoscalerLoop afresh = loop(fresh, decision -> new CompletableFuture<>());
        int before = kept.size();
        while (kept.size() < before + 3) {
            step(restarted, afresh, running);
        }

        List<ScalingDecision> next = kept.subList(before, kept.size());
        assertThat(restored).containsExactlyElementsOf(next);
        assertThat(next)
                .anySatisfy(
                        d -> assertThat(d.isBlocked(BlockReason.RESCALE_BUDGET_EXHAUSTED)).isTrue())
                .allSatisfy(d -> assertThat(d.isScale()).isFalse());
        assertThat(fresh)
                .as("a loop without the memory scales up again")
                .anySatisfy(d -> assertThat(d.isScale()).isTrue());
    }

    @Test
    void aLaterSaveReplacesTheEarlierOne() {
        List<ScalingDecision> decisions = new ArrayList<>();
        AutoscalerLoop loop = loop(decisions, decision -> new CompletableFuture<>());
        step(loop);
        store().save(loop.history());
        clock.advance(INTERVAL);
        step(loop);
        store().save(loop.history());

        ScalingHistory loaded = nextProcess().load().orElseThrow();

        assertThat(loaded.decisions()).containsExactlyElementsOf(decisions).hasSize(2);
    }

    private void step(AutoscalerLoop... loops) {
        clock.advance(STEP);
        model.step(STEP);
        for (AutoscalerLoop loop : loops) {
            loop.tick();
        }
    }

    private AutoscalerLoop loop(List<ScalingDecision> decisions, ScalingRealizer realizer) {
        Map<Setting, String> given = Map.of(Setting.MAX_RESCALES_PER_HOUR, "1");
        SettingValues settings = SettingValues.resolve(given, "test.", Setting.Profile.CLUSTER);
        return new AutoscalerLoop(
                AutoscalerConfig.of(Mode.AUTO, INTERVAL),
                new Ds2Policy(settings.policy(), clock),
                new SimulatedMetrics(model, STEP, INTERVAL),
                realizer,
                List.of(decisions::add),
                clock,
                e -> {});
    }

    /** source (1000/s, 2000/s from minute 10) → flatMap (100/s, ×10) → count (500/s). */
    private static Scenario wordCount() {
        RateProfile rate =
                new RateProfile(
                        List.of(
                                new RateProfile.Change(0, 1000),
                                new RateProfile.Change(600, 2000)));
        return Scenario.of(
                "wordcount",
                List.of(
                        SimOperator.source("source", 20_000, rate),
                        SimOperator.operator("flatMap", 100, 10),
                        SimOperator.operator("count", 500, 0)),
                List.of(new Edge("source", "flatMap"), new Edge("flatMap", "count")),
                1);
    }
}
