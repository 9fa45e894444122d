package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.settings.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job started over-provisioned, whose configured expected downtime is ten times its real one: the
 * first trim, the job's first rescale, can only plan the configured prior and keeps the spare to
 * drain 20 s of downtime; once that trim has measured 2 s, one more trim lowers the job to the
 * spare the real downtime needs. Nothing follows it. With learned scalability off, the measured
 * downtime alone allows that second trim (the first trim's guessed capacities do not).
 */
class MeasuredDowntimeTrimTest {

    private static final Duration REAL = Duration.ofSeconds(2);

    @ParameterizedTest(name = "learned scalability {0}")
    @ValueSource(booleans = {true, false})
    void aTrimPlannedOnTheConfiguredPriorIsCorrectedOnceTheDowntimeIsMeasured(boolean learn) {
        Scenario chain = PaperTopologies.filterMapChain(RateProfile.constant(1));
        Map<String, Integer> optimum = chain.optimalParallelism(0);
        Scenario over =
                new Scenario(
                        "filter-map chain over-provisioned",
                        chain.operators(),
                        chain.edges(),
                        Map.of(
                                "source", 1,
                                "filter", 4 * optimum.get("filter"),
                                "map", 4 * optimum.get("map"),
                                "enrich", 4 * optimum.get("enrich"),
                                "sink", 4 * optimum.get("sink")));
        ProfileDefaults defaults = new ProfileDefaults(Setting.Profile.CLUSTER, REAL, 10);

        PolicyConfig policy = defaults.policy().toBuilder().learnScalability(learn).build();

        Trajectory t =
                Simulation.ds2(over, policy, defaults.settings()).run(Duration.ofMinutes(60));
        SettlingReport report = SettlingReport.check(t, defaults.criteria());

        List<ScalingDecision> trims = t.scaleDecisions();
        assertThat(trims).as("a trim on the prior, then one on the measured downtime").hasSize(2);
        assertThat(trims.get(1).reasons())
                .anyMatch(r -> r.startsWith("expected rescale downtime 2.0 s (p"));
        assertThat(report.violations()).as(report.summary().toString()).isEmpty();
        assertThat(report.exemptions())
                .extracting(SettlingReport.Exemption::kind)
                .containsOnly(SettlingReport.Exemption.Kind.DOWNTIME_UNKNOWN_AT_THE_TRIM);
        assertThat(t.finalParallelism())
                .isEqualTo(report.loadChanges().get(0).optimum())
                .isNotEqualTo(trims.get(0).newParallelism());
    }
}
