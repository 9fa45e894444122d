package dev.flowscale.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {

    @Test
    void everyUnitFromNanosecondsToHoursReadsAsItsDuration() {
        assertThat(DurationText.parse("x", "500ns")).isEqualTo(Duration.ofNanos(500));
        assertThat(DurationText.parse("x", "200us")).isEqualTo(Duration.ofNanos(200_000));
        assertThat(DurationText.parse("x", "200µs")).isEqualTo(Duration.ofNanos(200_000));
        assertThat(DurationText.parse("x", "500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DurationText.parse("x", " 30s ")).isEqualTo(Duration.ofSeconds(30));
        assertThat(DurationText.parse("x", "2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(DurationText.parse("x", "2H")).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void decimalsAreExactAndRoundedToWholeNanoseconds() {
        assertThat(DurationText.parse("x", "0.5ms")).isEqualTo(Duration.ofNanos(500_000));
        assertThat(DurationText.parse("x", "1.5h")).isEqualTo(Duration.ofMinutes(90));
        assertThat(DurationText.parse("x", "1.5ns")).isEqualTo(Duration.ofNanos(2));
    }

    @Test
    void theLargestValueOfTheGrammarIsRepresentable() {
        assertThat(DurationText.parse("x", "999999999.999999999h"))
                .isGreaterThan(Duration.ofHours(999_999_999));
    }

    @Test
    void aNumberWithoutAUnitOrOutsideTheGrammarIsRefusedNamingTheFieldAndTheForm() {
        for (String bad :
                new String[] {"30", "1e400s", "9999999999h", "-1s", "1.2.3ms", "s", "", "2d"}) {
            assertThatThrownBy(() -> DurationText.parse("--catch-up", bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--catch-up is '" + bad + "': write " + DurationText.FORM);
        }
        assertThatThrownBy(() -> DurationText.parse("--catch-up", null))
                .hasMessageStartingWith("--catch-up is 'null'");
    }

    @Test
    void theSchemaPatternAcceptsExactlyWhatParseAccepts() {
        java.util.regex.Pattern schema =
                java.util.regex.Pattern.compile(DurationText.SCHEMA_PATTERN);
        String[] texts = {
            "500ns",
            "200us",
            "200µs",
            "0.5ms",
            " 30s ",
            "2m",
            "2H",
            "1.5h",
            "999999999.999999999h",
            "200US",
            "30",
            "1e400s",
            "9999999999h",
            "-1s",
            "1.2.3ms",
            "s",
            "",
            "2d",
            "1.s",
            ".5s"
        };
        for (String text : texts) {
            boolean parses;
            try {
                DurationText.parse("x", text);
                parses = true;
            } catch (IllegalArgumentException e) {
                parses = false;
            }
            assertThat(schema.matcher(text).matches()).as("'%s'", text).isEqualTo(parses);
        }
    }

    @Test
    void eachCallerFailsWithItsOwnExceptionType() {
        assertThatThrownBy(() -> DurationText.parse("f", "x", IllegalStateException::new))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void formatWritesTheShortestExactTextThatParsesBack() {
        assertThat(DurationText.format(Duration.ZERO)).isEqualTo("0s");
        assertThat(DurationText.format(Duration.ofMinutes(5))).isEqualTo("5m");
        assertThat(DurationText.format(Duration.ofHours(8760))).isEqualTo("8760h");
        assertThat(DurationText.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(DurationText.format(Duration.ofNanos(200_000))).isEqualTo("200us");
        assertThat(DurationText.format(Duration.ofNanos(1500))).isEqualTo("1500ns");
        for (Duration d :
                new Duration[] {Duration.ofSeconds(90), Duration.ofNanos(7), Duration.ofHours(3)}) {
            assertThat(DurationText.parse("x", DurationText.format(d))).isEqualTo(d);
        }
    }
}
