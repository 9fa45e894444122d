package dev.flowscale.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return EngineMain.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void runsWordCountForADurationAndPrintsEveryOperatorsRates() {
        int code = run("run", "wordcount", "--duration", "1500ms", "--print-interval", "500ms", "--rate", "20000",
                "--parallelism", "count=2");
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(text).contains("true proc/s").contains("sentences").contains("split").contains("count")
                .contains("Summary");
        assertThat(text).containsPattern("count\\s+2\\s");
    }

    @Test
    void runsTheCostChain() {
        int code = run("run", "chain", "--duration", "1s", "--stages", "2", "--stage-cost", "cpu:5us",
                "--rate", "1000");
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("map1").contains("map2");
    }

    @Test
    void badOptionsGiveAOneLineErrorAndTheUsage() {
        assertThat(run("run", "wordcount", "--parallelism", "nosuchop=2")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: job 'wordcount': no operator with id 'nosuchop'")
                .contains("usage:");
        err.reset();
        assertThat(run("run", "wordcount", "--bogus")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: unknown option --bogus");
        err.reset();
        assertThat(run("run", "nosuchjob")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown job 'nosuchjob'");
        err.reset();
        assertThat(run("run", "wordcount", "--rate", "warp:9")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: ").contains("warp");
        err.reset();
        assertThat(run("run", "wordcount", "--duration", "soon")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--duration 'soon' is not a duration");
    }
}
