package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.cli.CliOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlowscaleMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return FlowscaleMain.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpDocumentsEveryOption() {
        assertThat(run("--help")).isZero();
        String usage = out.toString(StandardCharsets.UTF_8);
        for (String option : FlowscaleMain.RUN_OPTIONS) {
            assertThat(usage).as("--" + option + " documented").contains("--" + option + " ");
        }
        for (String option : JobCatalog.OPTIONS) {
            assertThat(usage).as("--" + option + " documented").contains("--" + option + " ");
        }
    }

    @Test
    void badOptionsGiveAOneLineErrorAndTheUsage() {
        assertThat(run("run", "wordcount", "--mode", "sometimes")).isEqualTo(2);
        assertThat(errors()).startsWith("error: option --mode 'sometimes' is not auto or recommend\n").contains("usage:");
        err.reset();
        assertThat(run("run", "wordcount", "--min-parallelism", "5", "--max-parallelism", "2")).isEqualTo(2);
        assertThat(errors()).startsWith("error: --min-parallelism 5 is above --max-parallelism 2");
        err.reset();
        assertThat(run("run", "wordcount", "--target-utilization", "1.5")).isEqualTo(2);
        assertThat(errors()).startsWith("error: option --target-utilization is 1.5; use a number in [0.1, 1.0]");
        err.reset();
        assertThat(run("run", "wordcount", "--policy-interval", "0s")).isEqualTo(2);
        assertThat(errors()).startsWith("error: option --policy-interval must be above zero");
        err.reset();
        assertThat(run("run", "wordcount", "--emulated-restart", "11m")).isEqualTo(2);
        assertThat(errors()).startsWith("error: option --emulated-restart 11m is above 10m; use 0s to 10m");
        err.reset();
        assertThat(run("run", "wordcount", "--emulated-restart", "-5s")).isEqualTo(2);
        assertThat(errors()).startsWith("error: --emulated-restart '-5s' is not a duration");
        err.reset();
        assertThat(run("run", "wordcount", "--cost", "nosuch=cpu:1us")).isEqualTo(2);
        assertThat(errors()).startsWith("error: job 'wordcount': no operator with id 'nosuch'");
        err.reset();
        assertThat(run("run", "teleport")).isEqualTo(2);
        assertThat(errors()).startsWith("error: unknown job 'teleport'");
        err.reset();
        assertThat(run("dance")).isEqualTo(2);
        assertThat(errors()).startsWith("error: unknown command 'dance'");
    }

    @Test
    void theEmulatedRestartReachesTheSettingsAndTheDowntimePriorAndIsOffByDefault() {
        AutoscalerSettings emulated = settings("--emulated-restart", "30s");
        assertThat(emulated.emulatedRestart()).isEqualTo(Duration.ofSeconds(30));
        assertThat(emulated.policy().expectedRescaleDuration()).as("prior: a local rescale plus the emulated restart")
                .isEqualTo(Duration.ofSeconds(32));
        assertThat(settings().emulatedRestart()).isZero();
        assertThat(settings().policy().expectedRescaleDuration()).isEqualTo(Duration.ofSeconds(2));
    }

    private static AutoscalerSettings settings(String... args) {
        return FlowscaleMain.settings(CliOptions.parse(List.of(args), FlowscaleMain.RUN_OPTIONS, Set.of()));
    }

    @Test
    void runsAJobInRecommendModeAndWritesAReport(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report.html");
        int code = run("run", "chain", "--stages", "2", "--stage-cost", "sleep:2ms", "--rate", "300",
                "--mode", "recommend", "--policy-interval", "2s", "--warm-up", "500ms", "--duration", "7s",
                "--print-interval", "2s", "--report", report.toString(), "--savepoint-dir", dir.toString());
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(errors()).isZero();
        assertThat(text).contains("DECISION").contains("map1").contains("Summary after");
        assertThat(text).doesNotContain("RESCALED");
        String html = Files.readString(report);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").contains("Parallelism per operator")
                .contains("Decisions and rescales").doesNotContain("<script");
    }
}
