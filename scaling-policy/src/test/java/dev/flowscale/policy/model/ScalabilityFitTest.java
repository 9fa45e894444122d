package dev.flowscale.policy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.flowscale.policy.PolicyException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

class ScalabilityFitTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static List<CapacityObservation> observed(IntToDoubleFunction capacity, int... parallelisms) {
        List<CapacityObservation> list = new ArrayList<>();
        for (int i = 0; i < parallelisms.length; i++) {
            list.add(
                    new CapacityObservation(
                            T0.plusSeconds(60L * i),
                            parallelisms[i],
                            capacity.applyAsDouble(parallelisms[i])));
        }
        return list;
    }

    private static double usl(int p) {
        return 1000.0 * p / (1 + 0.05 * (p - 1) + 0.002 * p * (p - 1));
    }

    @Test
    void fallsBackToLinearDs2WithOneParallelismAndSaysSo() {
        ScalabilityModel m = ScalabilityFit.fit(observed(p -> 400, 4, 4, 4));

        assertThat(m.kind()).isEqualTo(ScalabilityModel.Kind.LINEAR);
        assertThat(m.capacityAt(10)).isCloseTo(1000, offset(1e-9));
        // 950 rec/s at 100 rec/s per instance: 9.5 -> 10, exactly DS2.
        assertThat(m.smallestParallelismFor(950, 128)).hasValue(10);
        assertThat(m.explanation()).contains("only parallelism 4 observed").contains("linear");
    }

    @Test
    void recoversASublinearExponentFromTwoParallelisms() {
        ScalabilityModel m = ScalabilityFit.fit(observed(p -> 1000 * Math.pow(p, 0.8), 2, 4));

        assertThat(m.kind()).isEqualTo(ScalabilityModel.Kind.POWER);
        assertThat(m.alpha()).isCloseTo(0.8, offset(1e-9));
        assertThat(m.lambda()).isCloseTo(1000, offset(1e-6));
    }

    @Test
    void sizesWithTheFittedCurveWhereLinearDs2WouldFallShort() {
        ScalabilityModel m = ScalabilityFit.fit(observed(p -> 1000 * Math.pow(p, 0.8), 1, 2, 4, 8));

        // 1000·7^0.8 = 4,743 < 5,000 <= 1000·8^0.8 = 5,278; linear DS2 from p=1 would say 5.
        assertThat(m.kind()).isEqualTo(ScalabilityModel.Kind.POWER);
        assertThat(m.smallestParallelismFor(5000, 128)).hasValue(8);
        assertThat(m.explanation()).contains("p^0.80").contains("[1, 2, 4, 8]");
    }

    @Test
    void clampsASuperlinearFitToLinear() {
        // 100 rec/s per instance at p=2, 125 at p=4: slope 1.32, clamped to 1; λ = √(100·125) =
        // 111.8.
        ScalabilityModel m = ScalabilityFit.fit(observed(p -> p == 2 ? 200 : 500, 2, 4));

        assertThat(m.alpha()).isEqualTo(1.0);
        assertThat(m.lambda()).isCloseTo(Math.sqrt(12_500), offset(1e-9));
        assertThat(m.explanation()).contains("clamped");
    }

    @Test
    void choosesTheUniversalScalabilityLawWhenCapacityBendsDown() {
        ScalabilityModel m = ScalabilityFit.fit(observed(ScalabilityFitTest::usl, 1, 2, 4, 8, 16));

        assertThat(m.kind()).isEqualTo(ScalabilityModel.Kind.USL);
        assertThat(m.lambda()).isCloseTo(1000, offset(0.5));
        assertThat(m.sigma()).isCloseTo(0.05, offset(1e-4));
        assertThat(m.kappa()).isCloseTo(0.002, offset(1e-5));
        // c(6) = 6000/1.31 = 4,580; c(7) = 7000/1.384 = 5,058.
        assertThat(m.smallestParallelismFor(5000, 128)).hasValue(7);
        assertThat(m.explanation())
                .contains("Universal Scalability Law")
                .contains("peaks near parallelism 22");
    }

    @Test
    void findsNoParallelismAboveTheUslPeak() {
        ScalabilityModel m = ScalabilityFit.fit(observed(ScalabilityFitTest::usl, 2, 4, 8));

        // The peak, near p = √(0.95/0.002) = 21.8, carries 22,000/2.974 = 7,397 rec/s.
        assertThat(m.smallestParallelismFor(8000, 128)).isEqualTo(OptionalInt.empty());
    }

    @Test
    void usesTheMedianOfRepeatedWindowsSoOneOutlierCannotBendTheCurve() {
        List<CapacityObservation> list = new ArrayList<>(observed(p -> 100.0 * p, 2, 2, 4, 4));
        list.add(new CapacityObservation(T0.plusSeconds(600), 4, 4_000));

        ScalabilityModel m = ScalabilityFit.fit(list);

        assertThat(m.alpha()).isEqualTo(1.0);
        assertThat(m.capacityAt(4)).isCloseTo(400, offset(1e-6));
    }

    @Test
    void anchorsTheFittedShapeAtTheLatestMeasurement() {
        ScalabilityModel m =
                ScalabilityFit.fit(observed(p -> 1000 * Math.pow(p, 0.8), 1, 2, 4))
                        .anchoredAt(4, 1741.1);

        // 1000·4^0.8 = 3,031.4; the level is scaled so c(4) = 1,741.1 and c(8) = 1,741.1·2^0.8 =
        // 3,031.4.
        assertThat(m.capacityAt(4)).isCloseTo(1741.1, offset(1e-6));
        assertThat(m.capacityAt(8)).isCloseTo(1741.1 * Math.pow(2, 0.8), offset(1e-6));
    }

    @Test
    void sizesWithinOneInstanceOfTheTruthFromNoisyWindows() {
        // 5 windows at each of 2, 4 and 8 with 5 % Gaussian noise, 300 seeded histories per curve.
        // Truth for
        // 5,000 rec/s: 8 under 1000·p^0.8, 7 under the USL of usl().
        Random random = new Random(3);
        for (IntToDoubleFunction curve :
                List.<IntToDoubleFunction>of(
                        p -> 1000 * Math.pow(p, 0.8), ScalabilityFitTest::usl)) {
            int truth = curve.applyAsDouble(7) >= 5000 ? 7 : 8;
            for (int i = 0; i < 300; i++) {
                List<CapacityObservation> list = new ArrayList<>();
                for (int p : new int[] {2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 8, 8, 8, 8, 8}) {
                    list.add(
                            new CapacityObservation(
                                    T0.plusSeconds(list.size()),
                                    p,
                                    curve.applyAsDouble(p) * (1 + 0.05 * random.nextGaussian())));
                }
                assertThat(ScalabilityFit.fit(list).smallestParallelismFor(5000, 128).getAsInt())
                        .isBetween(truth - 1, truth + 1);
            }
        }
    }

    @Test
    void refusesToFitWithoutObservations() {
        assertThatThrownBy(() -> ScalabilityFit.fit(List.of()))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("ScalabilityHistory");
    }
}
