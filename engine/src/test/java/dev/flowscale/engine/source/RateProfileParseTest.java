package dev.flowscale.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.common.DurationText;
import dev.flowscale.engine.api.EngineException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RateProfileParseTest {

    @Test
    void parsesABareNumberAsAConstantRate() {
        assertThat(RateProfile.parse("1000").describe()).isEqualTo("constant 1000/s");
        assertThat(RateProfile.parse(" constant:2.5 ").describe()).isEqualTo("constant 2.5/s");
    }

    @Test
    void parsesStepsWithDurationSuffixes() {
        RateProfile profile = RateProfile.parse("steps:0s=10,500ms=20,1m=5");
        assertThat(profile.describe()).isEqualTo("steps 0s=10/s, 0.5s=20/s, 60s=5/s");
        assertThat(profile.dueBy(0.5)).isEqualTo(5);
        assertThat(profile.dueBy(61)).isEqualTo(5 + 1190 + 5); // 20/s from 0.5s to 60s, then 5/s
    }

    @Test
    void parsesSineFieldsInAnyOrder() {
        RateProfile profile = RateProfile.parse("sine:period=1m,base=1000,amplitude=500");
        assertThat(profile.describe()).isEqualTo("sine base=1000/s amplitude=500/s period=60s");
        assertThat(profile.dueBy(60)).isEqualTo(60_000);
    }

    @Test
    void parsesATracePath(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("rates.csv"), "0,100\n");
        assertThat(RateProfile.parse("trace:" + file).dueBy(3)).isEqualTo(300);
    }

    @Test
    void rejectsAnUnknownKindListingTheValidOnes() {
        assertThatThrownBy(() -> RateProfile.parse("poisson:100"))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("unknown rate kind 'poisson'")
                .hasMessageContaining("constant")
                .hasMessageContaining("steps")
                .hasMessageContaining("sine")
                .hasMessageContaining("trace");
    }

    @ParameterizedTest
    @ValueSource(strings = {"fast", "constant:", "1000d", "NaN", "steps:0s=abc"})
    void rejectsBadNumbers(String spec) {
        assertThatThrownBy(() -> RateProfile.parse(spec))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("is not a number");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "steps:30d=100",
                "steps:xs=100",
                "steps:30=100",
                "sine:base=1,amplitude=1,period=1y"
            })
    void rejectsDurationsOutsideTheOneDurationGrammar(String spec) {
        assertThatThrownBy(() -> RateProfile.parse(spec))
                .isInstanceOf(EngineException.class)
                .hasMessageContaining("in '" + spec + "' is '")
                .hasMessageContaining(DurationText.FORM);
    }

    @Test
    void readsStepTimesAndPeriodsInTheOneDurationGrammar() {
        assertThat(RateProfile.parse("steps:0s=1,1.5m=2").rateAt(89.9)).isEqualTo(1);
        assertThat(RateProfile.parse("steps:0s=1,1.5m=2").rateAt(90)).isEqualTo(2);
        assertThat(RateProfile.parse("sine:base=100,amplitude=50,period=1h").rateAt(900))
                .isCloseTo(150, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void rejectsMalformedStepsAndSineFields() {
        assertThatThrownBy(() -> RateProfile.parse("steps:0s=1,30s"))
                .hasMessageContaining("TIME=RATE");
        assertThatThrownBy(() -> RateProfile.parse("steps:10s=1,5s=2"))
                .hasMessageContaining("strictly increasing");
        assertThatThrownBy(() -> RateProfile.parse("sine:base=1,amp=1,period=1s"))
                .hasMessageContaining("sine field 'amp=1'");
        assertThatThrownBy(() -> RateProfile.parse("sine:base=1,period=1s"))
                .hasMessageContaining("must set base, amplitude and period");
        assertThatThrownBy(() -> RateProfile.parse("-5"))
                .hasMessageContaining("rate must be a finite number >= 0");
        assertThatThrownBy(() -> RateProfile.parse(" ")).hasMessageContaining("must not be empty");
    }
}
