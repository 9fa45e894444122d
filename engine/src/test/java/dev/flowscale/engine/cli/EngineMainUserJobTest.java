package dev.flowscale.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.userjob.JobJars;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner runs a user's job from its jar, with the same options and errors as a built-in job.
 */
class EngineMainUserJobTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    @TempDir Path dir;
    private Path jar;

    @BeforeEach
    void packTheJob() throws Exception {
        jar = JobJars.pack(dir.resolve("numbers.jar"), "com/example/jobs");
    }

    private int run(String... args) {
        List<String> command =
                new java.util.ArrayList<>(
                        List.of(
                                "run",
                                "--job-jar",
                                jar.toString(),
                                "--job-class",
                                "com.example.jobs.NumbersJob",
                                "--savepoint-dir",
                                dir.resolve("state").toString()));
        command.addAll(List.of(args));
        return EngineMain.run(
                command,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void runsAUserJobWithItsOptionsAndTheRunnersParallelism() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        int code =
                run(
                        "--records",
                        "20000",
                        "--keys",
                        "7",
                        "--rate",
                        "20000",
                        "--parallelism",
                        "sum=2",
                        "--duration",
                        "1500ms",
                        "--print-interval",
                        "500ms");
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("running job 'numbers'").contains("square").contains("Summary");
        assertThat(text).containsPattern("sum\\s+2\\s");
        assertThat(Thread.currentThread().getContextClassLoader())
                .as("the caller's context class loader, back")
                .isSameAs(context);
    }

    @Test
    void aTypoInAJobOptionIsOneErrorLineNamingItWithExitCode2() {
        assertThat(run("--recods", "5")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "error: unknown option --recods for job class "
                                + "com.example.jobs.NumbersJob; the job reads --keys, --rate, --records and the runner's options are"
                                + " in --help"
                                + System.lineSeparator());
    }

    @Test
    void aBadRunnerOptionOrOperatorIsRefusedAsForABuiltInJob() {
        assertThat(run("--parallelism", "nosuchop=2")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("error: job 'numbers': no operator with id 'nosuchop'");
        err.reset();
        assertThat(run("--key-groups", "0")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: option --key-groups");
    }

    @Test
    void aClassThatIsNotInTheJarIsRefusedNamingTheOption() {
        int code =
                EngineMain.run(
                        List.of(
                                "run",
                                "--job-jar",
                                jar.toString(),
                                "--job-class",
                                "com.example.Missing"),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith(
                        "error: option --job-class com.example.Missing: no"
                                + " such class in --job-jar "
                                + jar);
    }
}
