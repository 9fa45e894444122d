package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.flowscale.cli.ConvergenceCases.Start;
import dev.flowscale.engine.examples.nexmark.Event;
import dev.flowscale.engine.examples.nexmark.Event.Auction;
import dev.flowscale.engine.examples.nexmark.Event.Bid;
import dev.flowscale.engine.examples.nexmark.Event.Person;
import dev.flowscale.engine.examples.nexmark.NexmarkGenerator;
import dev.flowscale.engine.examples.nexmark.NexmarkQueries;
import dev.flowscale.policy.api.PolicyConfig;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The convergence experiment's hand-computed optima, and the shares they rest on checked against
 * the generator. The runs themselves take minutes and are not a test: {@link NexmarkConvergence}
 * with {@code --check} (docs/benchmarks.md).
 */
class ConvergenceCasesTest {
    private static final double RATE = ConvergenceCases.RATE;

    @Test
    void theOptimaWorkedOutByHandPutSeveralOperatorsAboveOne() {
        assertThat(optimum(ConvergenceCases.q3()))
                .isEqualTo("events=1 persons=3 states=1 auctions=2 category=3 join=2 sink=1");
        assertThat(optimum(ConvergenceCases.q5()))
                .isEqualTo("events=1 bids=3 counts=5 hottest=1 sink=1");
        assertThat(optimum(ConvergenceCases.q8()))
                .isEqualTo("events=1 persons=2 auctions=3 join=3 sink=1");
        assertThat(optimum(ConvergenceCases.q11())).isEqualTo("events=1 bids=4 sessions=3 sink=1");
    }

    @Test
    void everyCostedLoadLiesWellBetweenTwoWholeInstancesSoMeasurementNoiseCannotMoveTheOptimum() {
        for (ConvergenceCase c : ConvergenceCases.all()) {
            c.loads()
                    .forEach(
                            (op, load) -> {
                                double fraction =
                                        load.instances(RATE) - Math.floor(load.instances(RATE));
                                assertThat(fraction).as(c.query() + " " + op).isBetween(0.35, 0.65);
                            });
        }
    }

    @Test
    void theSharesOfTheStreamEachOperatorReadsAreWhatTheGeneratorEmits() {
        NexmarkGenerator generator = NexmarkGenerator.standard();
        int n = 200_000;
        long persons = 0, auctions = 0, bids = 0, q3Persons = 0, q3Auctions = 0;
        for (long i = 0; i < n; i++) {
            Event e = generator.event(i);
            if (e instanceof Person p) {
                persons++;
                q3Persons += NexmarkQueries.Q3_STATES.contains(p.state()) ? 1 : 0;
            } else if (e instanceof Auction a) {
                auctions++;
                q3Auctions += a.category() == NexmarkQueries.Q3_CATEGORY ? 1 : 0;
            } else if (e instanceof Bid) {
                bids++;
            }
        }
        assertThat(ConvergenceCases.q5().loads().get("counts").share())
                .isEqualTo(bids / (double) n);
        assertThat(ConvergenceCases.q8().loads().get("join").share())
                .isEqualTo((persons + auctions) / (double) n);
        assertThat(ConvergenceCases.q3().loads().get("category").share())
                .isEqualTo(auctions / (double) n);
        // Q3's filters pick states and categories at random: the expected shares, within 3 %.
        assertThat(ConvergenceCases.q3().loads().get("join").share())
                .isCloseTo((q3Persons + q3Auctions) / (double) n, within(0.03 * 0.022));
    }

    @Test
    void everyStartBeginsAwayFromTheOptimumOnTheSideItsNameSays() {
        for (ConvergenceCase c : ConvergenceCases.all()) {
            Map<String, Integer> optimum = c.optimum(RATE);
            for (Start s : Start.values()) {
                assertThat(s.of(c, RATE)).as(c.query() + " " + s.label()).isNotEqualTo(optimum);
            }
            for (String op : c.loads().keySet()) {
                assertThat(Start.UNDER.of(c, RATE).get(op)).isLessThan(optimum.get(op));
                assertThat(Start.OVER.of(c, RATE).get(op)).isGreaterThan(optimum.get(op));
            }
        }
    }

    @Test
    void theDs2PolicyIsThePapersWithoutCatchUpDelaysOrCorrections() {
        NexmarkConvergence experiment =
                new NexmarkConvergence(new PrintStream(PrintStream.nullOutputStream()), null);
        new CommandLine(experiment).parseArgs("--policy", "ds2", "--interval", "5s");
        PolicyConfig policy = experiment.settings().autoscaler().policy();
        assertThat(policy.catchUpDuration()).isZero();
        assertThat(policy.scaleDownDelay()).isZero();
        assertThat(policy.learnScalability()).isFalse();
        assertThat(policy.scalabilityPrior()).isEqualTo(1.0);
        assertThat(policy.confirmNeed()).isFalse();
        assertThat(policy.skewCorrection()).isFalse();
        assertThat(policy.maxRescalesPerHour()).isZero();
        assertThat(experiment.settings().autoscaler().loop().policyInterval()).hasSeconds(5);
    }

    private static String optimum(ConvergenceCase c) {
        Map<String, Integer> optimum = new LinkedHashMap<>(c.optimum(RATE));
        StringBuilder sb = new StringBuilder();
        optimum.forEach(
                (op, p) -> sb.append(sb.isEmpty() ? "" : " ").append(op).append('=').append(p));
        return sb.toString();
    }
}
