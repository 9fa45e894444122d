package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flowscale run --emulated-restart} on the real engine: each rescale stays down that much
 * longer.
 */
class EmulatedRestartIT {
    private static final Pattern DOWN = Pattern.compile("RESCALED .* down for ([0-9.]+) s");

    @Test
    void aRunWithAnEmulatedRestartReportsRescalesDownAtLeastThatLongAndPlansWithIt(
            @TempDir Path dir) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code =
                FlowscaleMain.run(
                        List.of(
                                "run",
                                "wordcount",
                                "--rate",
                                "200",
                                "--cost",
                                "count=sleep:5ms",
                                "--policy-interval",
                                "3s",
                                "--warm-up",
                                "500ms",
                                "--emulated-restart",
                                "3s",
                                "--duration",
                                "20s",
                                "--print-interval",
                                "5s",
                                "--savepoint-dir",
                                dir.toString()),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);

        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(text)
                .as(
                        "the first decision plans with the prior: a local rescale (2 s) plus the emulated 3 s")
                .contains("expected rescale downtime 5.0 s (configured prior");
        Matcher rescaled = DOWN.matcher(text);
        assertThat(rescaled.find()).as("a rescale in\n" + text).isTrue();
        System.out.println("with --emulated-restart 3s: " + rescaled.group());
        assertThat(Double.parseDouble(rescaled.group(1)))
                .as("its downtime, s")
                .isGreaterThanOrEqualTo(3.0);
    }
}
