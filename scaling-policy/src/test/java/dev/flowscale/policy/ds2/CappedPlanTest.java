package dev.flowscale.policy.ds2;

import static dev.flowscale.policy.ds2.Fixtures.END;
import static dev.flowscale.policy.ds2.Fixtures.clockAt;
import static dev.flowscale.policy.ds2.Fixtures.op;
import static dev.flowscale.policy.ds2.Fixtures.source;
import static dev.flowscale.policy.ds2.Fixtures.topology;
import static dev.flowscale.policy.ds2.Fixtures.window;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * src (8,000 rec/s, a backlog) → parse (1,000 rec/s per instance) → cap (1,500 per instance, held
 * at its upper bound 4: it carries 6,000) → sink (5,000 per instance). No configuration carries the
 * source's rate; parse must still carry the 8,000 rec/s its input offers, and the sink only what
 * the cap passes on.
 */
class CappedPlanTest {

    private static final PolicyConfig CONFIG =
            PolicyConfig.builder()
                    .catchUpDuration(Duration.ofMinutes(5))
                    .expectedRescaleDuration(Duration.ofSeconds(30))
                    .operatorBounds("cap", 1, 4)
                    .build();

    private static ScalingDecision decide(int parse) {
        return new Ds2Policy(CONFIG, clockAt(END))
                .decide(
                        topology(
                                List.of("src:1", "parse:" + parse, "cap:4", "sink:2"),
                                "src->parse",
                                "parse->cap",
                                "cap->sink"),
                        window(
                                source("src", 1, 100_000, 8000, 100_000),
                                op("parse", parse, 1000.0 * parse, 1000.0 * parse),
                                op("cap", 4, 6000, 6000),
                                op("sink", 2, 10_000, 0)),
                        ScalingHistory.empty());
    }

    @Test
    void anOperatorBelowItsBaseNeedBehindACappedOneIsRaisedAndNeverSaidToSustain() {
        ScalingDecision d = decide(7);

        assertThat(d.outcome()).isEqualTo(Outcome.SCALE);
        assertThat(d.newParallelism()).containsEntry("parse", 8).containsEntry("cap", 4);
        assertThat(d.operators().get("parse").reasons())
                .noneMatch(r -> r.contains("sustains its target"));
    }

    @Test
    void aCappedPlanSizesUpstreamForItsBaseRateAndDownstreamForWhatTheCapPassesOn() {
        ScalingDecision d = decide(2);

        assertThat(d.newParallelism().get("parse")).isGreaterThanOrEqualTo(8);
        // the sink receives at most the 6,000 rec/s the cap carries: 2 instances of 5,000
        assertThat(d.newParallelism()).containsEntry("sink", 2);
        assertThat(d.operators().get("sink").targetInputRate()).isLessThanOrEqualTo(6000.0 + 1e-6);
    }
}
