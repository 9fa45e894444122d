package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.InstanceWindowRates;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A needed rescale capped by a hot key acts on the first window when waiting for a second would
 * cost the drain its deadline; otherwise it waits for confirmation as usual. "op" runs at 4 with
 * half its input on one key group and 100 rec/s per instance: it carries 160 rec/s there and at
 * most 100 / (0.5 + 0.5/128) = 198.4 rec/s (at 128). Catch-up 300 s, no downtime, 10 s windows.
 */
class UrgentNeedTest {

    private static final PolicyConfig CONFIRMING =
            PolicyConfig.builder()
                    .skewCorrection(true)
                    .confirmNeed(true)
                    .catchUpDuration(Duration.ofMinutes(5))
                    .expectedRescaleDuration(Duration.ZERO)
                    .build();

    @Test
    void actsOnTheFirstWindowWhenWaitingWouldMakeTheCappedDrainLate() {
        // 190 rec/s with 6,000 owed: no parallelism carries 190 + 6,000/225 = 216.7, so 128 drains
        // at 8.4 rec/s of spare; after one more window (300 records short) 6,300 records take 750 s
        ScalingDecision d = decide(190, 6_000);

        assertThat(d.isScale()).isTrue();
        assertThat(d.operators().get("op").newParallelism()).isEqualTo(128);
        assertThat(d.reasons())
                .anyMatch(r -> r.startsWith("acting without waiting for a confirming window"));
    }

    @Test
    void waitsForConfirmationWhenTheCappedPlanStillDrainsInTimeAfterTheWait() {
        // 170 rec/s with 7,000 owed: capped (170 + 7,000/225 = 201.1 > 198.4), and 32 drains the
        // backlog within the whole catch-up time (193.9 rec/s); after one more window 7,100
        // records drain at 23.9 rec/s in 297 s, within 300 s plus one window
        ScalingDecision d = decide(170, 7_000);

        assertThat(d.isBlocked(BlockReason.NEED_UNCONFIRMED)).isTrue();
        assertThat(d.reasons()).noneMatch(r -> r.startsWith("acting without waiting"));
    }

    @Test
    void waitsForConfirmationWhenThePlanIsSizedByTheWindowsRate() {
        // 170 rec/s, nothing owed: 32 carries 170, so the plan follows the measured rate, and a
        // window mixed across a step would undersize it
        assertThat(decide(170, 0).isBlocked(BlockReason.NEED_UNCONFIRMED)).isTrue();
    }

    private static ScalingDecision decide(double rate, double backlog) {
        return new Ds2Policy(CONFIRMING, clockAt(END))
                .decide(
                        topology(List.of("src:1", "op:4"), "src->op"),
                        window(source("src", 1, 100_000, rate, backlog), hotKeyAtFour()),
                        ScalingHistory.empty());
    }

    /** "op" at 4, busy: the hot instance takes half the input plus an even share of the rest. */
    private static OperatorMetrics hotKeyAtFour() {
        List<InstanceWindowRates> instances = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            double share = (k == 0 ? 0.5 : 0) + 0.5 / 4;
            instances.add(new InstanceWindowRates(k, 100, 100, 160 * share, 160 * share));
        }
        return OperatorMetrics.of("op", 4, 400, 400, 160, 160).withInstances(instances);
    }
}
