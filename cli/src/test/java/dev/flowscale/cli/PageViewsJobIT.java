package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.pageviews.PageViewsJob;
import com.example.pageviews.ParseClicks;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's shaded jar (its classes and its own Jackson 2.17) on the engine's shaded jar (Jackson
 * 2.23) and under the flowscale command, as a user runs it: separate processes, real engine.
 */
class PageViewsJobIT {
    private static final Path ENGINE =
            Path.of(
                    System.getProperty(
                            "flowscale.engine.jar", "../engine/target/flowscale-engine.jar"));
    private static final Path CLI =
            Path.of(System.getProperty("flowscale.cli.jar", "../cli/target/flowscale.jar"));
    private static final Path JOB =
            Path.of(
                    System.getProperty(
                            "flowscale.job.jar", "../examples/target/flowscale-examples-job.jar"));
    private static final String JOB_CLASS = PageViewsJob.class.getName();

    @TempDir Path dir;

    @Test
    void theJobParsesWithItsOwnJacksonWhileTheEngineKeepsItsOwn() throws Exception {
        try (URLClassLoader engine =
                new URLClassLoader(
                        new URL[] {ENGINE.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Object userJob =
                    engine.loadClass("dev.flowscale.engine.userjob.UserJobLoader")
                            .getMethod("load", String.class, String.class, ClassLoader.class)
                            .invoke(null, JOB.toString(), JOB_CLASS, engine);
            ClassLoader jobLoader =
                    (ClassLoader) userJob.getClass().getMethod("classLoader").invoke(userJob);
            String jobs =
                    (String)
                            jobLoader
                                    .loadClass(ParseClicks.class.getName())
                                    .getMethod("jacksonVersion")
                                    .invoke(null);
            Object enginesVersion =
                    engine.loadClass("com.fasterxml.jackson.databind.cfg.PackageVersion")
                            .getField("VERSION")
                            .get(null);
            assertThat(jobs).isEqualTo("2.17.2");
            assertThat(enginesVersion.toString())
                    .as("the engine's shaded Jackson")
                    .isNotEqualTo(jobs);
            ((AutoCloseable) userJob).close();
        }
    }

    @Test
    void theEnginesRunnerRunsTheJobFromItsJar() throws Exception {
        Run run =
                run(
                        List.of(
                                "java",
                                "-jar",
                                ENGINE.toString(),
                                "run",
                                "--job-jar",
                                JOB.toString(),
                                "--job-class",
                                JOB_CLASS,
                                "--rate",
                                "2000",
                                "--limit",
                                "4000",
                                "--pages",
                                "50",
                                "--duration",
                                "4s",
                                "--parallelism",
                                "count=2",
                                "--savepoint-dir",
                                dir.resolve("state").toString()),
                        60);
        assertThat(run.code()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("running job 'page-views'")
                .containsPattern("count\\s+2\\s");
    }

    @Test
    void aTypoInTheJobsOptionsIsOneErrorLineAndExitCode2() throws Exception {
        Run run =
                run(
                        List.of(
                                "java",
                                "-jar",
                                ENGINE.toString(),
                                "run",
                                "--job-jar",
                                JOB.toString(),
                                "--job-class",
                                JOB_CLASS,
                                "--pagse",
                                "50"),
                        30);
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.output().strip())
                .isEqualTo(
                        "error: unknown option --pagse for job class "
                                + JOB_CLASS
                                + "; the job reads --bot-percent, --limit, --pages, --print, --rate, --users and the runner's"
                                + " options are in --help");
    }

    /**
     * Under {@code flowscale run}, the DS2 autoscaler brings the job from one instance per operator
     * to its optimum: at 280 clicks/s, parse (20 ms a click: 50/s an instance) needs 280/50 = 5.6,
     * so 6 instances; count (10 ms a view: 100/s) gets the 90 % that are not bots, 252/s, so 3. On
     * a shared machine an instance measures a little under its nominal capacity, so the optimum or
     * one above it is accepted, as in the command's own DS2 tests. A 24 s run holds about four
     * decisions (one every 6 s): the one that scales and those that would correct it (a 40 s run
     * took seven, one of them to scale); no trim can come within the 60 s scale-down delay.
     */
    @Test
    void underTheFlowscaleCommandTheJobIsScaledToItsDs2Optimum() throws Exception {
        Run run =
                run(
                        List.of(
                                "java",
                                "-jar",
                                CLI.toString(),
                                "run",
                                "--job-jar",
                                JOB.toString(),
                                "--job-class",
                                JOB_CLASS,
                                "--rate",
                                "280",
                                "--cost",
                                "parse=sleep:20ms,count=sleep:10ms",
                                "--mode",
                                "auto",
                                "--policy-interval",
                                "6s",
                                "--warm-up",
                                "2s",
                                "--catch-up",
                                "0s",
                                "--learn-scalability",
                                "false",
                                "--skew-correction",
                                "false",
                                "--confirm-need",
                                "false",
                                "--scale-down-delay",
                                "60s",
                                "--duration",
                                "24s",
                                "--print-interval",
                                "10s",
                                "--savepoint-dir",
                                dir.toString()),
                        120);
        assertThat(run.code()).as(run.output()).isZero();
        System.out.print(
                run.output().substring(Math.max(0, run.output().lastIndexOf("Summary after"))));
        assertThat(finalParallelism(run.output(), PageViewsJob.PARSE))
                .as(run.output())
                .isBetween(6, 7);
        assertThat(finalParallelism(run.output(), PageViewsJob.COUNT))
                .as(run.output())
                .isBetween(3, 4);
    }

    /** The "final" column of the run's summary. */
    private static int finalParallelism(String output, String operator) {
        Matcher m =
                Pattern.compile("(?m)^\\s+" + operator + "\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s*$")
                        .matcher(output);
        assertThat(m.find()).as("a summary row for " + operator + " in\n" + output).isTrue();
        return Integer.parseInt(m.group(2));
    }

    private record Run(int code, String output) {}

    private Run run(List<String> command, int timeoutSeconds)
            throws IOException, InterruptedException {
        List<String> javaCommand = new ArrayList<>(command);
        javaCommand.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path log = Files.createTempFile(dir, "run", ".log");
        Process process =
                new ProcessBuilder(javaCommand)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
