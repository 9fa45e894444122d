package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code flowscale run --job-jar/--job-class}: bad arguments are one error line with exit code 2.
 */
class UserJobsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return FlowscaleMain.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void aJobJarThatDoesNotExistIsNamedInTheError() {
        assertThat(run("run", "--job-jar", "nope.jar", "--job-class", "com.example.MyJob"))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "error: option --job-jar nope.jar is not a jar file"
                                + " or a folder of jars; give the path of the job's jar (e.g. target/my-job.jar)"
                                + System.lineSeparator());
    }

    @Test
    void aClassNotOnTheClassPathAsksForTheJobsJar() {
        assertThat(run("run", "--job-class", "com.example.Missing", "--duration", "1s"))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith(
                        "error: option --job-class com.example.Missing: no"
                                + " such class in the runner's class path; give the job's jar with --job-jar");
    }

    @Test
    void withoutAJobNameOrClassTheErrorSaysWhatRunNeeds() {
        assertThat(run("run", "--duration", "1s")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("error: run needs a job name (built-in jobs are ")
                .contains("or --job-jar JAR --job-class CLASS");
    }
}
