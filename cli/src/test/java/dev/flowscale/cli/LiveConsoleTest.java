package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.ScalingDecision;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LiveConsoleTest {

    @Test
    void aDecisionBlockedForMissingMetricsSaysWhyThatIsExpected() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new LiveConsole(new PrintStream(out, true, StandardCharsets.UTF_8), 5)
                .onDecision(
                        26.5,
                        ScalingDecision.blocked(
                                Instant.EPOCH,
                                "wordcount",
                                BlockReason.METRICS_MISSING,
                                "no complete metrics window is available yet"));

        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("DECISION BLOCKED (METRICS_MISSING)")
                .contains("no complete metrics window is available yet")
                .contains(
                        "(expected after the start and after each rescale: the counters restart with the new run");
    }

    @Test
    void otherDecisionsGetNoNote() {
        assertThat(ReportText.why("SCALE")).isEmpty();
        assertThat(ReportText.why("BLOCKED SCALE_DOWN_DELAYED")).isEmpty();
        assertThat(ReportText.why("BLOCKED WARMING_UP")).contains("--warm-up");
    }
}
