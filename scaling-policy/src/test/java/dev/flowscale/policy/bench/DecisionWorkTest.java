package dev.flowscale.policy.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.flowscale.common.DurationText;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.ds2.Ds2Policy;
import dev.flowscale.policy.settings.SettingValues;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A decision's work does not grow with the history the loop hands the policy. Work is counted as
 * the bytes a decision allocates on its thread: every step of the policy allocates, and unlike time
 * the count does not depend on how loaded the machine is.
 */
class DecisionWorkTest {

    private static final Instant END = Instant.parse("2026-01-01T00:00:10Z");
    private static final int OPERATORS = 200;
    private static final int WARM_UP = 40;
    private static final int ROUNDS = 5;

    /** What one operator's fitted curve may add to a decision's allocation, in bytes. */
    private static final double CURVE_BYTES = 600;

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void aDecisionAfterADayOfHistoryDoesAboutTheWorkOfOneAfterTenMinutes() {
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "JVM counts no allocation");
        threads.setThreadAllocatedMemoryEnabled(true);
        SettingValues settings = SettingValues.defaults();
        Ds2Policy policy = new Ds2Policy(settings.policy(), Clock.fixed(END, ZoneOffset.UTC));
        DecisionBenchmark.RandomDag dag = DecisionBenchmark.RandomDag.of(OPERATORS, new Random(42));
        Duration interval = settings.autoscaler().policyInterval();
        int kept = settings.autoscaler().historySize();
        Map<String, ScalingHistory> histories = new LinkedHashMap<>();
        for (String span : new String[] {"10m", "2.5h", "24h"}) {
            histories.put(
                    span,
                    RunHistory.of(
                            dag,
                            END,
                            DurationText.parse("history", span),
                            interval,
                            kept,
                            new Random(7)));
        }

        Map<String, Long> work = leastWork(policy, dag, histories);

        assertThat(histories.get("2.5h").decisions()).hasSizeLessThan(kept / 3);
        assertThat(histories.get("24h").decisions()).hasSize(kept);
        // a day fills the loop's history, three times the decisions of 2.5 h: no more work
        assertThat((double) work.get("24h"))
                .as("bytes per decision: %s", work)
                .isLessThanOrEqualTo(1.05 * work.get("2.5h"));
        // past rescales add a fitted curve per operator that moved (about 470-500 bytes: the
        // curve anchored at the window, its searches and its record), nothing per past decision;
        // bounded per operator, not as a share of the rest, which shrinks as the rest gets cheaper
        assertThat((double) (work.get("24h") - work.get("10m")) / OPERATORS)
                .as("bytes per operator that a day of history adds: %s", work)
                .isLessThanOrEqualTo(CURVE_BYTES);
    }

    /**
     * Per history, the least bytes one decision allocated over several rounds, taken in turn after
     * a warm-up of every history: the compiler only ever removes allocations, so the least is the
     * decision's work with the code compiled as far as it goes.
     */
    private Map<String, Long> leastWork(
            Ds2Policy policy,
            DecisionBenchmark.RandomDag dag,
            Map<String, ScalingHistory> histories) {
        for (int i = 0; i < WARM_UP; i++) {
            histories.values().forEach(h -> policy.decide(dag.topology(), dag.window(), h));
        }
        Map<String, Long> least = new LinkedHashMap<>();
        for (int round = 0; round < ROUNDS; round++) {
            histories.forEach(
                    (span, h) -> {
                        long before = threads.getCurrentThreadAllocatedBytes();
                        policy.decide(dag.topology(), dag.window(), h);
                        long bytes = threads.getCurrentThreadAllocatedBytes() - before;
                        least.merge(span, bytes, Math::min);
                    });
        }
        return least;
    }
}
