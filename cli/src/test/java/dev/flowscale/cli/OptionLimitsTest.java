package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Options whose value is past a limit, and combinations that cannot run, end in one error line that
 * names the limit, exit code 2, before anything starts.
 */
class OptionLimitsTest {
    @TempDir Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--savepoint-dir", dir.toString()));
        return FlowscaleMain.run(
                all,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String oneErrorLine() {
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(text.lines().toList()).as(text).hasSize(1);
        assertThat(text).doesNotContain("\tat ").doesNotContain("Exception");
        return text.strip();
    }

    @Test
    void aDurationPastTheLimitNamesTheLimit() {
        assertThat(run("run", "wordcount", "--duration", "99999999999999h")).isEqualTo(2);
        assertThat(oneErrorLine())
                .startsWith("error: option --duration")
                .contains("99999999999999h")
                .contains("use 0s to 8760h");
    }

    @Test
    void aJobNameWithJobClassIsOneLine() {
        assertThat(run("run", "wordcount", "--job-class", "com.example.Job")).isEqualTo(2);
        assertThat(oneErrorLine()).contains("wordcount").contains("--job-class");
    }

    @Test
    void moreInstancesThanTheMachineRunsIsRefusedBeforeAnythingStarts() {
        assertThat(
                        run(
                                "run",
                                "wordcount",
                                "--key-groups",
                                "4096",
                                "--parallelism",
                                "count=4096",
                                "--duration",
                                "3s"))
                .isEqualTo(2);
        assertThat(oneErrorLine())
                .contains("needs 4099 threads")
                .contains("threads per core")
                .contains("--parallelism");
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("running");
    }
}
