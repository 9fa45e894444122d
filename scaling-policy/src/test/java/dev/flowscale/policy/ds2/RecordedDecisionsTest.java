package dev.flowscale.policy.ds2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.PolicyConfig;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.sim.RandomDataflows;
import dev.flowscale.policy.sim.RateProfile;
import dev.flowscale.policy.sim.Scenario;
import dev.flowscale.policy.sim.Simulation;
import dev.flowscale.policy.sim.TableDefaults;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The policy's decisions, reasons and figures included, are exactly those recorded before its
 * decision path was made cheaper (lazy reason texts, indexed lookups): 200 single decisions on
 * seeded random graphs ({@link RandomDecisionInputs}) and every decision of eight simulated runs
 * with history (scale-down delay, trims, learned curves, forecasts). A change meant to alter
 * decisions rewrites the recordings on purpose: {@code mvn -pl scaling-policy verify
 * -Dtest=RecordedDecisionsTest -Dgolden.write=true}.
 */
class RecordedDecisionsTest {

    private static final Path DIR =
            Path.of("src", "test", "resources", "dev", "flowscale", "policy", "ds2");
    private static final int GRAPHS = 200;

    @Test
    void decisionsOn200SeededRandomGraphsAreTheRecordedOnes() throws IOException {
        List<String> lines = new ArrayList<>();
        for (long seed = 0; seed < GRAPHS; seed++) {
            RandomDecisionInputs in = RandomDecisionInputs.of(seed);
            Ds2Policy policy =
                    new Ds2Policy(in.config(), Fixtures.clockAt(Fixtures.END.plusSeconds(1)));
            lines.add("# graph seed " + seed);
            lines.addAll(
                    describe(policy.decide(in.topology(), in.window(), ScalingHistory.empty())));
        }
        assertMatchesRecording("random-graph-decisions.txt.gz", lines);
    }

    @Test
    void everyDecisionOfSimulatedRunsWithHistoryIsTheRecordedOne() throws IOException {
        RateProfile load =
                RateProfile.sine(1, 0.5, Duration.ofMinutes(20), Duration.ofMinutes(60))
                        .then(3600, 0.6);
        List<String> lines = new ArrayList<>();
        List<Scenario> scenarios = RandomDataflows.generate(99, 8, load);
        for (int i = 0; i < scenarios.size(); i++) {
            PolicyConfig config =
                    TableDefaults.policy().toBuilder()
                            .predictive(i % 2 == 0)
                            .learnScalability(i % 4 < 2)
                            .skewCorrection(i % 3 == 0)
                            .build();
            for (ScalingDecision d :
                    Simulation.ds2(
                                    scenarios.get(i),
                                    config,
                                    TableDefaults.settings(Duration.ofSeconds(30)))
                            .run(Duration.ofMinutes(90))
                            .decisions()) {
                lines.addAll(describe(d));
            }
        }
        assertMatchesRecording("simulated-decisions.txt.gz", lines);
    }

    /** The decision as text and every operator's figures at full precision. */
    static List<String> describe(ScalingDecision d) {
        List<String> lines = new ArrayList<>(List.of(d.explain().split("\n")));
        for (OperatorDecision op : d.operators().values()) {
            lines.add(
                    "  = "
                            + op.operatorId()
                            + " "
                            + op.currentParallelism()
                            + " "
                            + op.newParallelism()
                            + " "
                            + op.recommendedParallelism()
                            + " "
                            + op.targetInputRate()
                            + " "
                            + op.capacityPerInstance()
                            + " "
                            + op.utilization()
                            + " "
                            + op.catchUpShare());
        }
        return lines;
    }

    private static void assertMatchesRecording(String name, List<String> lines) throws IOException {
        Path file = DIR.resolve(name);
        if (Boolean.getBoolean("golden.write")) {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
                out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        List<String> recorded;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            recorded = List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        }
        for (int i = 0; i < Math.min(lines.size(), recorded.size()); i++) {
            assertThat(lines.get(i)).as("line %d of %s", i + 1, name).isEqualTo(recorded.get(i));
        }
        assertThat(lines).as("lines of %s", name).hasSameSizeAs(recorded);
    }
}
