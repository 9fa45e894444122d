package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guards that make decisions settle: confirmation, one trim per load change, trims that stay
 * drainable.
 */
class SettlingGuardsTest {

    private static final PolicyConfig SETTLING =
            PolicyConfig.builder()
                    .catchUpDuration(Duration.ofSeconds(600))
                    .expectedRescaleDuration(Duration.ofSeconds(30))
                    .confirmNeed(true)
                    .build();

    /**
     * "op" at parallelism p, 100 rec/s per instance, behind a source offering {@code rate}; window
     * ends at {@code at}.
     */
    private static ScalingDecision decideAt(
            PolicyConfig config, Instant at, int p, double rate, List<ScalingDecision> past) {
        MetricsWindow w =
                MetricsWindow.of(
                        at.minusSeconds(10),
                        at,
                        List.of(source("src", 1, 100_000, rate, 0), op("op", p, 100.0 * p, 0)));
        return new Ds2Policy(config, clockAt(at))
                .decide(
                        topology(List.of("src:1", "op:" + p), "src->op"),
                        w,
                        new ScalingHistory(past, List.of()));
    }

    @Test
    void aNeededRescaleWaitsForTheNextWindowToConfirmIt() {
        List<ScalingDecision> past = new ArrayList<>();

        ScalingDecision first = decideAt(SETTLING, END, 10, 1500, past);
        past.add(first);
        ScalingDecision second = decideAt(SETTLING, END.plusSeconds(10), 10, 1500, past);

        assertThat(first.isBlocked(BlockReason.NEED_UNCONFIRMED)).isTrue();
        assertThat(first.newParallelism()).containsEntry("op", 10);
        assertThat(first.operators().get("op").recommendedParallelism()).isEqualTo(16);
        assertThat(second.isScale()).isTrue();
        assertThat(second.newParallelism()).containsEntry("op", 16);
    }

    @Test
    void aNeedThatTheNextWindowDoesNotShowIsDropped() {
        List<ScalingDecision> past = new ArrayList<>();
        past.add(decideAt(SETTLING, END, 10, 1500, past));

        ScalingDecision next = decideAt(SETTLING, END.plusSeconds(10), 10, 990, past);

        assertThat(next.isScale()).isFalse();
        assertThat(next.blockReason()).isEmpty();
    }

    @Test
    void afterATrimTheNextWaitsForTheLoadToFall() {
        List<ScalingDecision> past = new ArrayList<>();
        ScalingDecision trim = decideAt(SETTLING, END, 14, 950, past);
        past.add(trim);

        ScalingDecision sameLoad = decideAt(SETTLING, END.plusSeconds(60), 12, 900, past);
        ScalingDecision lowerLoad = decideAt(SETTLING, END.plusSeconds(60), 12, 800, past);

        assertThat(trim.newParallelism()).containsEntry("op", 10);
        assertThat(sameLoad.isScale()).isFalse();
        assertThat(sameLoad.operators().get("op").reasons())
                .anyMatch(
                        r ->
                                r.startsWith(
                                        "further trim held: the sources' rate 900.0 rec/s has not fallen by more"
                                                + " than 10 %"));
        assertThat(lowerLoad.isScale()).isTrue();
    }

    @Test
    void aTrimRaisesAnOperatorWithNoSpareToDrainTheTrimsOwnDowntime() {
        // "a" runs at exactly its target (10 x 100 rec/s): lowering "b" from 20 to 11 costs 30 s of
        // downtime that "a" could never drain, so the same rescale raises "a" to 11
        JobTopology t = topology(List.of("src:1", "a:10", "b:20"), "src->a", "a->b");
        MetricsWindow w = aAtItsTargetBehindB();

        ScalingDecision d =
                new Ds2Policy(SETTLING, clockAt(END)).decide(t, w, ScalingHistory.empty());

        assertThat(d.isScale()).isTrue();
        assertThat(d.newParallelism().get("a")).isGreaterThan(10);
        assertThat(d.newParallelism()).containsEntry("b", 11);
    }

    @Test
    void aTrimThatWouldLeaveNoSpareWhereTheBottleneckIsAtItsBoundIsRefused() {
        JobTopology t = topology(List.of("src:1", "a:10", "b:20"), "src->a", "a->b");
        MetricsWindow w = aAtItsTargetBehindB();

        ScalingDecision d =
                new Ds2Policy(SETTLING.toBuilder().operatorBounds("a", 1, 10).build(), clockAt(END))
                        .decide(t, w, ScalingHistory.empty());

        assertThat(d.isScale()).isFalse();
        assertThat(d.operators().get("b").recommendedParallelism()).isLessThan(20);
        assertThat(d.operators().get("b").reasons())
                .contains(
                        "trim refused: the trimmed configuration would need"
                                + " forever to drain its own downtime (catch-up time 600 s, one window"
                                + " more where its bottleneck is kept)");
    }

    @Test
    void aTrimRefusedAsTooTightStaysRefusedUntilTheLoadMovesByMoreThanTheNoiseTolerance() {
        // "a" (10 x 100 rec/s) is kept; lowering "b" from 20 needs the spare to drain 30 s of
        // downtime in 600 s: capacity 1.05x the rate. At 955 rec/s "a" has 1.047x (refused); at
        // 945 rec/s, 1 % lower (the first seconds of a step down, or noise: tolerance 2 %), 1.058x
        // would pass
        List<ScalingDecision> past = new ArrayList<>();
        past.add(twoOperators(END, 955, past));

        ScalingDecision withinNoise = twoOperators(END.plusSeconds(10), 945, past);
        ScalingDecision fallen = twoOperators(END.plusSeconds(10), 900, past);

        assertThat(past.get(0).isScale()).isFalse();
        assertThat(past.get(0).operators().get("b").reasons())
                .anyMatch(r -> r.startsWith("trim refused: the trimmed configuration would need"));
        assertThat(withinNoise.isScale()).isFalse();
        assertThat(withinNoise.operators().get("b").reasons())
                .anyMatch(
                        r ->
                                r.startsWith("trim refused: refused as too tight at " + END)
                                        && r.contains("rate 945.0 rec/s has moved by less than"));
        assertThat(fallen.isScale()).isTrue();
        assertThat(fallen.newParallelism().get("b")).isLessThan(20);
    }

    /** "a" at exactly its target (10 × 100 rec/s of 1,000), "b" at 20 with room to spare. */
    private static MetricsWindow aAtItsTargetBehindB() {
        return MetricsWindow.of(
                END.minusSeconds(10),
                END,
                List.of(
                        source("src", 1, 100_000, 1000, 0),
                        op("a", 10, 1000, 1000),
                        op("b", 20, 2000, 0)));
    }

    private static ScalingDecision twoOperators(
            Instant at, double rate, List<ScalingDecision> past) {
        MetricsWindow w =
                MetricsWindow.of(
                        at.minusSeconds(10),
                        at,
                        List.of(
                                source("src", 1, 100_000, rate, 0),
                                op("a", 10, 1000, 1000),
                                op("b", 20, 2000, 0)));
        return new Ds2Policy(
                        SETTLING.toBuilder()
                                .noiseTolerance(0.02)
                                .operatorBounds("a", 1, 10)
                                .build(),
                        clockAt(at))
                .decide(
                        topology(List.of("src:1", "a:10", "b:20"), "src->a", "a->b"),
                        w,
                        new ScalingHistory(past, List.of()));
    }
}
