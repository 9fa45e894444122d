package dev.flowscale.policy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.PolicyException;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IneffectiveScaleUpTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final double QUARTER = IneffectiveScaleUp.DEFAULT_MIN_GAIN_SHARE;

    private static ScalabilityHistory history(double... pairs) {
        ScalabilityHistory h = ScalabilityHistory.empty();
        for (int i = 0; i < pairs.length; i += 2) {
            h =
                    h.with(
                            "count",
                            new CapacityObservation(
                                    T0.plusSeconds(30L * i), (int) pairs[i], pairs[i + 1]));
        }
        return h;
    }

    @Test
    void holdsAtTheSmallerParallelismWhenDoublingAddedFourPercent() {
        IneffectiveScaleUp.Verdict v =
                IneffectiveScaleUp.check("count", 4, 1010, 8, 1050, QUARTER).orElseThrow();

        assertThat(v.holdAt()).isEqualTo(4);
        assertThat(v.reason())
                .isEqualTo(
                        "count: 4 -> 8 raised capacity 1,010 -> 1,050 rec/s (+4 %, expected +100 %);"
                                + " more instances will not help; holding at 4");
    }

    @Test
    void acceptsAScaleUpThatDeliveredAQuarterOfItsExpectedGain() {
        // 4 -> 6 expects +500 on 1,000; +125 is exactly a quarter, +124 is not.
        assertThat(IneffectiveScaleUp.check("count", 4, 1000, 6, 1125, QUARTER)).isEmpty();
        assertThat(IneffectiveScaleUp.check("count", 4, 1000, 6, 1124, QUARTER)).isPresent();
    }

    @Test
    void reportsALossOfCapacityWithItsSign() {
        String reason =
                IneffectiveScaleUp.check("count", 2, 1000, 4, 900, QUARTER).orElseThrow().reason();

        assertThat(reason).contains("1,000 -> 900 rec/s (-10 %, expected +100 %)");
    }

    @Test
    void ignoresScaleDowns() {
        assertThat(IneffectiveScaleUp.check("count", 8, 1000, 4, 999, QUARTER)).isEmpty();
    }

    @Test
    void detectsTheLatestScaleUpInTheHistoryFromMedians() {
        // At 4: 1,000, 1,010, 5,000 (an outlier) -> median 1,010; at 8: 1,040, 1,050, 1,060 ->
        // median 1,050.
        ScalabilityHistory h = history(4, 1000, 4, 1010, 4, 5000, 8, 1040, 8, 1050, 8, 1060);

        Optional<IneffectiveScaleUp.Verdict> v = IneffectiveScaleUp.detect("count", h, QUARTER);

        assertThat(v)
                .map(IneffectiveScaleUp.Verdict::reason)
                .hasValueSatisfying(
                        r ->
                                assertThat(r)
                                        .startsWith(
                                                "count: 4 -> 8 raised capacity 1,010 -> 1,050 rec/s"));
    }

    @Test
    void seesNoVerdictWithoutAChangeOfParallelismOrAfterAnEffectiveOne() {
        assertThat(IneffectiveScaleUp.detect("count", history(4, 1000, 4, 1000), QUARTER))
                .isEmpty();
        assertThat(IneffectiveScaleUp.detect("count", history(4, 1000, 8, 1900), QUARTER))
                .isEmpty();
        assertThat(IneffectiveScaleUp.detect("other", history(4, 1000, 8, 1000), QUARTER))
                .isEmpty();
    }

    @Test
    void rejectsAGainShareOutsideZeroToOne() {
        assertThatThrownBy(() -> IneffectiveScaleUp.check("count", 4, 1000, 8, 1000, 1.5))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("minGainShare is 1.5");
    }
}
