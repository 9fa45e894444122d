package dev.flowscale.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.flowscale.engine.api.EngineException;
import dev.flowscale.engine.source.RateProfile.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RateProfileTest {

    @TempDir Path dir;

    @Test
    void constantOwesRateTimesElapsedSeconds() {
        RateProfile profile = RateProfile.constant(1000);
        assertThat(profile.dueBy(-1)).isZero();
        assertThat(profile.dueBy(0)).isZero();
        assertThat(profile.dueBy(0.5)).isEqualTo(500);
        assertThat(profile.dueBy(2.0019)).isEqualTo(2001);
        assertThat(profile.rateAt(3)).isEqualTo(1000);
        assertThat(profile.describe()).isEqualTo("constant 1000/s");
    }

    @Test
    void decimalTimesDoNotLoseARecordToBinaryRounding() {
        // 10 * 0.7 is 6.999999999999999 in binary floating point.
        assertThat(RateProfile.constant(10).dueBy(0.7)).isEqualTo(7);
    }

    @Test
    void stepsSumEachSegment() {
        RateProfile profile =
                RateProfile.steps(
                        List.of(new Step(0, 1000), new Step(30, 3000), new Step(60, 500)));
        assertThat(profile.dueBy(30)).isEqualTo(30_000);
        assertThat(profile.dueBy(45)).isEqualTo(30_000 + 45_000);
        assertThat(profile.dueBy(60)).isEqualTo(120_000);
        assertThat(profile.dueBy(70)).isEqualTo(125_000);
        assertThat(profile.rateAt(29.9)).isEqualTo(1000);
        assertThat(profile.rateAt(30)).isEqualTo(3000);
        assertThat(profile.describe()).isEqualTo("steps 0s=1000/s, 30s=3000/s, 60s=500/s");
    }

    @Test
    void stepsOweNothingBeforeTheFirstStep() {
        RateProfile profile = RateProfile.steps(List.of(new Step(10, 100)));
        assertThat(profile.rateAt(5)).isZero();
        assertThat(profile.dueBy(5)).isZero();
        assertThat(profile.dueBy(12)).isEqualTo(200);
    }

    @Test
    void sineAboveZeroFollowsTheClosedForm() {
        // base*t + amplitude*period/2π*(1 - cos(2πt/period)); 500*60/2π = 4774.65
        RateProfile profile = RateProfile.sine(1000, 500, 60);
        assertThat(profile.dueBy(15)).isEqualTo(19_774);
        assertThat(profile.dueBy(30)).isEqualTo(39_549);
        assertThat(profile.dueBy(45)).isEqualTo(49_774);
        assertThat(profile.dueBy(60)).isEqualTo(60_000);
        assertThat(profile.dueBy(600)).isEqualTo(600_000);
        assertThat(profile.rateAt(15)).isCloseTo(1500, within(1e-9));
    }

    @Test
    void sineWithZeroBaseOwesOnlyTheUpperHalfPeriod() {
        // ∫0^5 1000 sin(2πt/10) dt = 1000 * 10/2π * 2 = 3183.1
        RateProfile profile = RateProfile.sine(0, 1000, 10);
        assertThat(profile.dueBy(2.5)).isEqualTo(1591);
        assertThat(profile.dueBy(5)).isEqualTo(3183);
        assertThat(profile.dueBy(7.5)).isEqualTo(3183);
        assertThat(profile.dueBy(10)).isEqualTo(3183);
        assertThat(profile.dueBy(20)).isEqualTo(6366);
        assertThat(profile.rateAt(7.5)).isZero();
    }

    @Test
    void clippedSineOwesOnlyWhereTheRateIsPositive() {
        // period 2π s, so the phase is t; rate > 0 where sin t > -1/2: [0, 7π/6) and (11π/6, 2π).
        // 500*7π/6 + 1000*(1 + √3/2) = 3698.62, then 500*π/6 - 1000*(1 - √3/2) = 127.82.
        RateProfile profile = RateProfile.sine(500, 1000, 2 * Math.PI);
        assertThat(profile.dueBy(7 * Math.PI / 6)).isEqualTo(3698);
        assertThat(profile.dueBy(11 * Math.PI / 6)).isEqualTo(3698);
        assertThat(profile.dueBy(2 * Math.PI)).isEqualTo(3826);
        assertThat(profile.dueBy(4 * Math.PI)).isEqualTo(7652);
    }

    @Test
    void traceIsPiecewiseConstantAndHoldsTheLastRate() throws IOException {
        Path file = write("# recorded load\n\n0,100\n10, 200\n  \n20,0\n30,50\n");
        RateProfile profile = RateProfile.trace(file);
        assertThat(profile.dueBy(5)).isEqualTo(500);
        assertThat(profile.dueBy(15)).isEqualTo(2000);
        assertThat(profile.dueBy(25)).isEqualTo(3000);
        assertThat(profile.dueBy(40)).isEqualTo(3500);
        assertThat(profile.rateAt(1000)).isEqualTo(50);
        assertThat(profile.describe()).isEqualTo("trace " + file + " (4 points)");
    }

    @Test
    void traceOwesNothingBeforeItsFirstPoint() throws IOException {
        RateProfile profile = RateProfile.trace(write("5,100\n"));
        assertThat(profile.rateAt(4)).isZero();
        assertThat(profile.dueBy(4)).isZero();
        assertThat(profile.dueBy(6)).isEqualTo(100);
    }

    @Test
    void everyProfileIsNonDecreasingAndMatchesTheIntegralOfItsRate() throws IOException {
        List<RateProfile> profiles =
                List.of(
                        RateProfile.constant(333.3),
                        RateProfile.steps(
                                List.of(new Step(1, 100), new Step(3.3, 7), new Step(9, 2500))),
                        RateProfile.sine(1000, 1000, 7),
                        RateProfile.sine(200, 900, 3.7),
                        RateProfile.trace(write("0,10\n2.5,1000\n4,0\n8,123.4\n")));
        for (RateProfile profile : profiles) {
            long previous = 0;
            double integral = 0;
            double dt = 2e-4;
            for (int i = 1; i <= 100_000; i++) {
                double t = i * dt;
                integral += profile.rateAt(t - dt / 2) * dt; // midpoint rule
                long due = profile.dueBy(t);
                if (due < previous) { // plain check: AssertJ per step would dominate the run
                    assertThat(due)
                            .as("%s at %s", profile.describe(), t)
                            .isGreaterThanOrEqualTo(previous);
                }
                previous = due;
            }
            assertThat((double) previous).as(profile.describe()).isCloseTo(integral, within(1.5));
        }
    }

    @Test
    void rejectsNegativeRates() {
        assertThatThrownBy(() -> RateProfile.constant(-1))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("rate must be a finite number >= 0");
        assertThatThrownBy(() -> RateProfile.sine(-1, 0, 10)).hasMessageContaining("sine base");
        assertThatThrownBy(() -> RateProfile.sine(10, -1, 10))
                .hasMessageContaining("sine amplitude");
        assertThatThrownBy(() -> new Step(0, -5)).hasMessageContaining("step rate");
    }

    @Test
    void rejectsBadStepsAndPeriods() {
        assertThatThrownBy(() -> RateProfile.steps(List.of()))
                .hasMessageContaining("at least one step");
        assertThatThrownBy(() -> RateProfile.steps(List.of(new Step(5, 1), new Step(5, 2))))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("strictly increasing");
        assertThatThrownBy(() -> new Step(-1, 5)).hasMessageContaining("step time");
        assertThatThrownBy(() -> RateProfile.sine(10, 5, 0))
                .hasMessageContaining("sine period must be");
    }

    @Test
    void rejectsNonFiniteQueryTime() {
        assertThatThrownBy(() -> RateProfile.constant(1).dueBy(Double.NaN))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("tSeconds");
        assertThatThrownBy(() -> RateProfile.sine(1, 1, 1).rateAt(Double.POSITIVE_INFINITY))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("tSeconds");
    }

    @Test
    void traceErrorsNameTheFileAndLine() throws IOException {
        assertTraceError(
                "0,10\n# c\n5,20\n5,30\n", "line 4: time 5 is not after the previous point's 5");
        assertTraceError("0,10\n1,2,3\n", "line 2: expected 'time,rate'");
        assertTraceError("0,10\n1,lots\n", "line 2: rate 'lots' is not a number");
        assertTraceError("0x1,10\n", "line 1: time '0x1' is not a number");
        assertTraceError("0,-10\n", "line 1: rate must be finite and >= 0");
        assertTraceError("-1,10\n", "line 1: time must be finite and >= 0");
        assertTraceError("# nothing\n\n", "holds no 'time,rate' points");
        Path missing = dir.resolve("missing.csv");
        assertThatThrownBy(() -> RateProfile.trace(missing))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("cannot read trace file " + missing);
    }

    private void assertTraceError(String content, String expected) throws IOException {
        Path file = write(content);
        assertThatThrownBy(() -> RateProfile.trace(file))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining(expected);
    }

    private Path write(String content) throws IOException {
        return Files.writeString(Files.createTempFile(dir, "trace", ".csv"), content);
    }
}
