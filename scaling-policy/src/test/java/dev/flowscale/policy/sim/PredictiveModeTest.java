package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.PolicyConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 12's predictive mode on the simulator ({@link PredictiveComparison}): the word count on a
 * sine and on a compressed working day, at a 30 s rescale downtime, reactive against predictive.
 */
class PredictiveModeTest {

    private static final List<PredictiveComparison.Row> ROWS = PredictiveComparison.rows();

    @Test
    void onTheDailyPatternPredictiveHasLessBacklogAndLessOverProvisionedInstanceTime() {
        PredictiveComparison.Row reactive = row("daily", false);
        PredictiveComparison.Row predictive = row("daily", true);
        PredictiveComparison.print(System.out, ROWS);

        assertThat(predictive.backlogRecordSeconds()).isLessThan(reactive.backlogRecordSeconds());
        assertThat(predictive.peakBacklog()).isLessThanOrEqualTo(reactive.peakBacklog());
        assertThat(predictive.overProvisioned()).isLessThan(reactive.overProvisioned());
    }

    /** Not yet lower backlog on the sine: the trims it takes cost scale-ups on the next rise. */
    @Test
    void onTheSinePredictiveHasLessOverProvisionedInstanceTime() {
        assertThat(row("sine", true).overProvisioned()).isLessThan(row("sine", false).overProvisioned());
    }

    @Test
    void aPredictiveDecisionNamesItsForecastOnceThePeriodIsFound() {
        Scenario scenario = PredictiveComparison.job("sine");
        PolicyConfig config = TableDefaults.policy().toBuilder().predictive(true).build();
        Trajectory t = Simulation.ds2(scenario, config, TableDefaults.settings(PredictiveComparison.DOWNTIME))
                .run(Duration.ofHours(2));

        ScalingDecision last = t.decisions().get(t.decisions().size() - 1);
        assertThat(last.reasons()).anySatisfy(r -> assertThat(r)
                .matches("source 'source': forecast [0-9,]+ rec/s within \\d+ s \\(harmonic, period 1[78]\\d\\d s\\).*"));
    }

    @Test
    void predictiveModeIsOffByDefault() {
        assertThat(TableDefaults.policy().predictive()).isFalse();
        assertThat(PolicyConfig.defaults().predictive()).isFalse();
    }

    private static PredictiveComparison.Row row(String load, boolean predictive) {
        return ROWS.stream().filter(r -> r.load().equals(load) && r.predictive() == predictive).findFirst()
                .orElseThrow();
    }
}
