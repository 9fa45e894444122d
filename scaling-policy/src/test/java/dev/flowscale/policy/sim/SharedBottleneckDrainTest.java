package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.settings.Setting;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A job of the users' suite with two sources whose records meet at the bottleneck, started
 * over-provisioned, at the local defaults with 30 s rescales (catch-up 300 s). Its trim keeps the
 * bottleneck's spare to drain one downtime in the catch-up time. After the trim, the second source
 * drains first and its share of that spare then serves the first; read with its own share alone,
 * the first source's backlog seemed to drain too late, so every decision scaled up again (24
 * rescales and 15 returns to earlier configurations in 30 minutes). Judged on the backlogs and the
 * spare of both together, the trim stands.
 */
class SharedBottleneckDrainTest {

    private static final int JOB = 143;
    private static final Duration DOWNTIME = Duration.ofSeconds(30);

    @Test
    void aTrimmedJobWhoseSourcesShareTheBottleneckIsNotScaledUpAgainAndAgain() {
        UserScenarios.Job job =
                UserScenarios.generate(
                                UserSuiteReport.SEED,
                                JOB + 1,
                                UserSuiteReport.inFlightSecond(Setting.Profile.LOCAL, DOWNTIME))
                        .get(JOB);
        assertThat(job.scenario().operators().stream().filter(SimOperator::isSource)).hasSize(2);

        SettlingReport report = UserSuiteReport.run(job, Setting.Profile.LOCAL, DOWNTIME);

        assertThat(report.violations()).as(report.summary().toString()).isEmpty();
        assertThat(report.summary().revisits()).isZero();
        assertThat(report.loadChanges())
                .allSatisfy(c -> assertThat(c.trims()).isLessThanOrEqualTo(1));
    }

    /**
     * Two sources meet at the bottleneck, one of whose records cost it far more than the other's.
     * After a trim that kept the spare to drain one downtime, the costly source drained first: in
     * source records the backlog grew while the bottleneck worked through it at its full spare, so
     * it seemed to drain too late and the job was scaled up and trimmed back again and again (7
     * returns to earlier configurations at one load). Counted in the records the bottleneck
     * processes, the backlog drains in time and the trim stands.
     */
    @Test
    void backlogsThatCostTheBottleneckUnequallyAreWeighedInItsRecords() {
        UserScenarios.Job job =
                UserScenarios.generate(
                                UserSuiteReport.SEED,
                                150,
                                UserSuiteReport.inFlightSecond(Setting.Profile.LOCAL, DOWNTIME))
                        .get(149);

        SettlingReport report = UserSuiteReport.run(job, Setting.Profile.LOCAL, DOWNTIME);

        assertThat(report.violations()).as(report.summary().toString()).isEmpty();
        assertThat(report.summary().revisits()).isZero();
    }
}
