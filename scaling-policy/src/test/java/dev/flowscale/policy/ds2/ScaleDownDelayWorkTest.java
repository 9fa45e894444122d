package dev.flowscale.policy.ds2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ScaleDownDelayWorkTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final int OPERATORS = 50;
    private static final int DECISIONS = 1_000;

    @Test
    void everyOperatorOfOneDecisionSharesOneWalkOfTheDecisionsAtTheCurrentLoad() {
        List<ScalingDecision> decisions = new ArrayList<>();
        for (int i = 0; i < DECISIONS; i++) {
            decisions.add(
                    ScalingDecision.of(T0.plusSeconds(30L * i), "job", List.of(), operators()));
        }
        ScalingHistory history = new ScalingHistory(decisions, List.of());
        Instant now = T0.plusSeconds(30L * DECISIONS);
        AtomicInteger loadChecks = new AtomicInteger();
        SameLoadRun atLoad =
                new SameLoadRun(
                        history.decisions(),
                        d -> loadChecks.incrementAndGet() > 0 && d.time().isAfter(T0));
        List<OperatorDecision> applied = new ArrayList<>();
        for (OperatorDecision op : operators()) {
            applied.add(ScaleDownDelay.apply(op, history, now, Duration.ofMinutes(5), atLoad));
        }
        assertThat(loadChecks.get())
                .as("load checks for %d operators on %d decisions", OPERATORS, DECISIONS)
                .isEqualTo(DECISIONS);
        assertThat(applied)
                .allSatisfy(
                        op ->
                                assertThat(op.reasons())
                                        .anyMatch(
                                                r ->
                                                        r.startsWith(
                                                                "scale-down recommended for 29970 s")));
    }

    private static List<OperatorDecision> operators() {
        List<OperatorDecision> ops = new ArrayList<>();
        for (int i = 0; i < OPERATORS; i++) {
            ops.add(new OperatorDecision("op" + i, 4, 4, 3, 10, 5, 0.5, 0, List.of()));
        }
        return ops;
    }
}
