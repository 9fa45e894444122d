package dev.flowscale.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 12's bar: with the defaults of the settings table, at rescale downtimes of 2, 30 and 60 s, on the word
 * count, the join-and-window job and 50 random graphs, the DS2 policy settles after every load
 * change (see {@link SettlingCriteria}). {@code SettlingSuiteReport} prints the same figures.
 */
@Disabled("enable when issue 12's cost-aware policy lands: today no scenario settles at any downtime;"
        + " scenarios failing at 2/30/60 s: rescales to sustain > 1 in 45/44/44, trims > 1 in 51/52/52,"
        + " revisits in 32/48/44, backlog not drained in time in 29/48/48, final parallelism short of the"
        + " target in 21/1/1, final parallelism not minimal in 37/52/52 of 52")
class CostAwareSettlingTest {

    static Stream<Arguments> runs() {
        List<Scenario> suite = ScenarioSuite.all();
        return SettlingSuiteReport.DOWNTIMES.stream()
                .flatMap(d -> suite.stream().map(s -> Arguments.of(Named.of(s.name(), s), d)));
    }

    @ParameterizedTest(name = "{0} at a {1} rescale downtime")
    @MethodSource("runs")
    void settlesAfterEveryLoadChange(Scenario scenario, Duration downtime) {
        SettlingReport report = SettlingSuiteReport.run(scenario, downtime);

        assertThat(report.violations()).as(report.summary().toString()).isEmpty();
    }
}
