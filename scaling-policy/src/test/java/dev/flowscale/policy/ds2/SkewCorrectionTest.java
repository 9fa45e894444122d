package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SkewCorrectionTest {

    private static final PolicyConfig SKEW_AWARE =
            PolicyConfig.builder().skewCorrection(true).build();

    /**
     * "op" at parallelism 4, capacity 100 per instance, the hot instance taking {@code skew +
     * (1-skew)/4}.
     */
    private static OperatorMetrics skewed(double skew, double processed) {
        List<InstanceWindowRates> instances = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            double share = (k == 0 ? skew : 0) + (1 - skew) / 4;
            instances.add(
                    new InstanceWindowRates(k, 100, 100, processed * share, processed * share));
        }
        return OperatorMetrics.of("op", 4, 400, 400, processed, processed).withInstances(instances);
    }

    private static OperatorDecision decide(PolicyConfig config, OperatorMetrics op, double rate) {
        return new Ds2Policy(config, clockAt(END))
                .decide(
                        topology(List.of("src:1", "op:4"), "src->op"),
                        window(source("src", 1, 100_000, rate, 0), op),
                        ScalingHistory.empty())
                .operators()
                .get("op");
    }

    @Test
    void raisesParallelismUntilTheHotInstanceKeepsUp() {
        OperatorDecision d = decide(SKEW_AWARE, skewed(0.3, 210), 250);

        // 250 · (0.3 + 0.7 · ⌈128/q⌉/128) <= 100: q = 7 owns 19 key groups (101.0), q = 8 owns 16
        // (96.9)
        assertThat(d.newParallelism()).isEqualTo(8);
        assertThat(d.reasons())
                .anyMatch(
                        r ->
                                r.startsWith(
                                        "key skew 0.30 (hottest instance 0 of 4 (key groups"
                                                + " [0, 32)) takes 48 % of the input)"));
    }

    @Test
    void leavesPlainDs2AloneWithoutSkewCorrection() {
        assertThat(decide(PolicyConfig.exactDs2(), skewed(0.3, 210), 250).newParallelism())
                .isEqualTo(3);
    }

    @Test
    void ignoresEvenlySpreadInstances() {
        assertThat(decide(SKEW_AWARE, skewed(0, 250), 250).newParallelism()).isEqualTo(3);
    }

    @Test
    void capsAnOperatorWhoseHotKeyNoParallelismCanCarryAndSaysMoreInstancesWillNotHelp() {
        OperatorDecision d = decide(SKEW_AWARE, skewed(0.5, 200), 250);

        // The most any q carries is 100 / (0.5 + 0.5/128) = 198.4 rec/s at 128, short of 250; 95 %
        // of it,
        // 188.5 rec/s, needs the hot instance's other key groups ⌈128/q⌉ <= 7: q = 19.
        assertThat(d.newParallelism()).isEqualTo(19);
        assertThat(d.reasons())
                .anyMatch(
                        r ->
                                r.startsWith(
                                                "more instances will not help 'op': hot key groups"
                                                        + " among [0, 32) hold 50 % of the input")
                                        && r.contains("capped at 19"));
    }

    @Test
    void drainsABacklogAtTheMostCapableParallelismWhereThatCarriesTheBaseRate() {
        // base 190 rec/s plus 6,000 records in 225 s = 216.7 rec/s: no q carries it (at most
        // 198.4 at 128), nor in the whole 300 s (210 rec/s), but 128 carries the base, so the
        // backlog drains there, fastest
        OperatorDecision drains = drain(190, 6_000);
        // 250 rec/s: no q carries even the base, so more instances will not help (capped at 19)
        OperatorDecision cannot = drain(250, 6_000);

        assertThat(drains.newParallelism()).isEqualTo(128);
        assertThat(drains.reasons())
                .anyMatch(
                        r -> r.startsWith("sized to drain the backlog within the whole catch-up"));
        assertThat(cannot.newParallelism()).isEqualTo(19);
    }

    @Test
    void drainsABacklogAtTheSmallestParallelismThatDrainsItWithinTheWholeCatchUpTime() {
        // base 192 rec/s plus 1,460 records in 225 s = 198.5 rec/s: just above what 128 carries
        // (100 / (0.5 + 0.5/128) = 198.4). In the whole 300 s it is 196.9 rec/s, which 64 carries
        // (100 / (0.5 + 0.5·2/128) = 196.9; 43 carries 195.4): 64 drains the backlog in time, so
        // the other 64 instances would buy only the last 0.8 % of capacity
        OperatorDecision d = drain(192, 1_460);

        assertThat(d.newParallelism()).isEqualTo(64);
        assertThat(d.reasons())
                .anyMatch(
                        r -> r.startsWith("sized to drain the backlog within the whole catch-up"));
    }

    /**
     * The decision for "op" (at 4, its hot key group holding half the input) behind a source
     * offering {@code rate} with {@code backlog} records owed, catch-up 5 min, no downtime.
     */
    private static OperatorDecision drain(double rate, double backlog) {
        PolicyConfig draining =
                SKEW_AWARE.toBuilder()
                        .catchUpDuration(Duration.ofMinutes(5))
                        .expectedRescaleDuration(Duration.ZERO)
                        .build();
        return new Ds2Policy(draining, clockAt(END))
                .decide(
                        topology(List.of("src:1", "op:4"), "src->op"),
                        window(source("src", 1, 100_000, rate, backlog), skewed(0.5, 160)),
                        ScalingHistory.empty())
                .operators()
                .get("op");
    }

    @Test
    void seesAHotKeyGroupAtParallelismOneFromPerKeyGroupRates() {
        List<Double> groups = new ArrayList<>();
        for (int g = 0; g < 128; g++) {
            groups.add(100 * ((g == 0 ? 0.3 : 0) + 0.7 / 128));
        }
        OperatorDecision d = decideAtOne(groups);

        // Plain DS2 would say 3; the hot key group 0 holds 30 % + 70 %/128, so as above q = 8.
        assertThat(d.newParallelism()).isEqualTo(8);
        assertThat(d.reasons())
                .anyMatch(
                        r ->
                                r.contains(
                                        "hot key groups [0]: the hottest carries 31 % of the input"));
    }

    @Test
    void sizesForTheBusiestInstanceOfTheMeasuredSpreadNotForOneHotSpot() {
        // All input in key groups 0..7, 12.5 % each: every q up to 16 gives them all to instance
        // 0; an instance of q owns ⌈128/q⌉ or ⌊128/q⌋ key groups, so the busiest holds three of
        // them (37.5 %) from q = 43 on and four (50 %) up to q = 42. The one-hot-spot model (s =
        // 0.118 from the hottest group) would say q = 4.
        List<Double> groups = new ArrayList<>();
        for (int g = 0; g < 128; g++) {
            groups.add(g < 8 ? 100 / 8.0 : 0);
        }
        OperatorDecision d = decideAtOne(groups);

        // 250 rec/s · 37.5 % = 93.8 <= 100 at q = 43; 250 · 50 % = 125 > 100 at q = 42
        assertThat(d.newParallelism()).isEqualTo(43);
    }

    /** The decision for "op" at parallelism 1 with these key-group rates, behind 250 rec/s. */
    private static OperatorDecision decideAtOne(List<Double> keyGroupRates) {
        OperatorMetrics one =
                OperatorMetrics.of("op", 1, 100, 100, 100, 100)
                        .withInstances(List.of(new InstanceWindowRates(0, 100, 100, 100, 100)))
                        .withKeyGroupRates(keyGroupRates);
        return new Ds2Policy(SKEW_AWARE, clockAt(END))
                .decide(
                        topology(List.of("src:1", "op:1"), "src->op"),
                        window(source("src", 1, 100_000, 250, 0), one),
                        ScalingHistory.empty())
                .operators()
                .get("op");
    }

    @Test
    void estimatesTheSkewFromTheHottestInstancesShare() {
        assertThat(SkewCorrection.skew(skewed(0.3, 200)))
                .isCloseTo(0.3, org.assertj.core.data.Offset.offset(1e-9));
    }
}
