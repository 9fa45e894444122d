package dev.flowscale.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.flowscale.policy.settings.Setting;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FlowscaleMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return FlowscaleMain.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theRunCommandsHelpListsEverySettingOfTheTableWithItsLocalDefault() {
        assertThat(run("run", "--help")).isZero();
        String usage = out.toString(StandardCharsets.UTF_8);
        for (Setting s : Setting.values()) {
            assertThat(usage)
                    .as(s.option())
                    .contains("--" + s.option() + "=")
                    .contains("(default " + s.defaultText(Setting.Profile.LOCAL) + ")");
        }
        assertThat(usage)
                .contains("--key-groups")
                .contains("--rate")
                .contains("--report")
                .contains("--window")
                .contains("A built-in job: wordcount, chain, sensor-alerts,")
                .contains("nexmark-q11");
    }

    @Test
    void theTopLevelHelpListsTheCommandsAndNoCommandIsABadInvocation() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("Usage: flowscale")
                .contains("run")
                .contains("demo")
                .contains("jobs")
                .contains("completion");
        out.reset();
        assertThat(run()).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Usage: flowscale");
    }

    @Test
    void theDemoIsTheRunCommandWithTheDemosOptionsWhichTheUsersOverride() {
        List<String> args = Demo.expand(List.of("demo", "--duration", "5s"));
        RunCommand demo = RunCommand.parsed(args.subList(1, args.size()));
        assertThat(demo.output().duration()).isEqualTo(Duration.ofSeconds(5));
        assertThat(demo.settings().autoscaler().loop().policyInterval())
                .isEqualTo(Duration.ofSeconds(8));
        assertThat(demo.settings().startFresh())
                .as("a demo run again starts at its script's parallelism, not at the last run's")
                .isTrue();
        assertThat(run("demo", "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", ""))
                .as("the demo's arguments, however the help wraps them")
                .contains(String.join("", Demo.DEFAULTS));
    }

    @Test
    void theCompletionScriptCoversTheCommandsAndTheSettingsOptions() {
        assertThat(run("completion")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("complete -F _complete_flowscale")
                .contains("./flowscale")
                .contains("--scale-down-delay")
                .contains("--key-groups");
    }

    @Test
    void badOptionsGiveAOneLineErrorWithoutTheUsage() {
        assertThat(run("run", "wordcount", "--mode", "sometimes")).isEqualTo(2);
        assertThat(errors())
                .isEqualTo("error: option --mode is 'sometimes': use auto, recommend or off\n");
        err.reset();
        assertThat(run("run", "wordcount", "--min-parallelism", "5", "--max-parallelism", "2"))
                .isEqualTo(2);
        assertThat(errors())
                .startsWith(
                        "error: option --min-parallelism 5 is above option --max-parallelism 2");
        err.reset();
        assertThat(run("run", "wordcount", "--target-utilization", "1.5")).isEqualTo(2);
        assertThat(errors())
                .startsWith(
                        "error: option --target-utilization is '1.5': use a number from 0.1 to 1.0");
        err.reset();
        assertThat(run("run", "wordcount", "--policy-interval", "0s")).isEqualTo(2);
        assertThat(errors())
                .startsWith("error: option --policy-interval is '0s': use a duration above zero");
        err.reset();
        assertThat(run("run", "wordcount", "--emulated-restart", "11m")).isEqualTo(2);
        assertThat(errors())
                .startsWith("error: option --emulated-restart 11m is above 10m; use 0s to 10m");
        err.reset();
        assertThat(run("run", "wordcount", "--emulated-restart", "-5s")).isEqualTo(2);
        assertThat(errors())
                .startsWith("error: option --emulated-restart is '-5s': write a number and a unit");
        err.reset();
        assertThat(run("run", "wordcount", "--cost", "nosuch=cpu:1us")).isEqualTo(2);
        assertThat(errors()).startsWith("error: job 'wordcount': no operator with id 'nosuch'");
        err.reset();
        assertThat(run("run", "teleport")).isEqualTo(2);
        assertThat(errors())
                .startsWith(
                        "error: job 'teleport' is not a built-in job; use one of "
                                + "wordcount, chain, sensor-alerts, nexmark-q1, nexmark-q2, nexmark-q3, nexmark-q5, nexmark-q8, nexmark-q11");
        err.reset();
        assertThat(run("dance")).isEqualTo(2);
        assertThat(errors())
                .isEqualTo(
                        "error: unknown command 'dance'; use run, demo, attach, flink-cluster, jobs, completion\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--duration 1e400s                      | option --duration is '1e400s': write a number and a unit",
                "--metrics-port 70000                   | option --metrics-port is 70000; use a whole number from 0 to 65535",
                "--print-interval 0s                    | option --print-interval is 0s; use 100ms to 8760h",
                "--report /no/such/folder/r.html        | option --report /no/such/folder/r.html: folder /no/such/folder does not exist",
                "--key-groups 4 --parallelism count=8   | option --parallelism count=8 is not a whole number from 1 to 4 (--key-groups",
                "--max-parallelism 200                  | option --max-parallelism is 200, above --key-groups 128",
                "--catch-up 1e400s                      | option --catch-up is '1e400s': write a number and a unit",
                "--window 0s                            | option --window is 0s; use more than 0s and at most 8760h",
                "--key-groups 0                         | option --key-groups is 0; use a whole number from 1 to 32768",
                "--bogus 1                              | unknown option --bogus; --help lists the options",
                "--limit 0                              | option --limit is 0; use a whole number from 1 to 2147483647",
                "--rate --duration 3s                   | option --rate needs a value before --duration",
                "--vocabulary 10 --stage-cost cpu:1us   | option --stage-cost applies to job chain only, not wordcount",
                "--savepoint-dir /proc/flowscale        | option --savepoint-dir /proc/flowscale cannot be written",
                "--report=                              | option --report needs a file name",
            })
    void everyBadOptionValueIsOneErrorLineNamingTheOptionAndItsRangeWithExitCode2(
            String args, String message) {
        List<String> command = new java.util.ArrayList<>(List.of("run", "wordcount"));
        command.addAll(List.of(args.trim().split(" +")));

        int code =
                FlowscaleMain.run(
                        command,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).isEqualTo(2);
        assertThat(errors()).startsWith("error: " + message.trim());
        assertThat(errors().lines()).as("one line, no usage, no stack trace").hasSize(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).as("nothing started").isEmpty();
    }

    @Test
    void aReportPathThatIsAFolderIsRefusedBeforeTheRunStarts(@TempDir Path dir) {
        assertThat(run("run", "wordcount", "--report", dir.toString(), "--duration", "60s"))
                .isEqualTo(2);
        assertThat(errors())
                .startsWith("error: option --report " + dir + " is a folder; name a file in it");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aRunWithASixtySecondCostPerRecordEndsWithItsThreeSecondDuration(@TempDir Path dir) {
        long start = System.nanoTime();
        int code =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(60),
                        () ->
                                run(
                                        "run",
                                        "wordcount",
                                        "--cost",
                                        "split=sleep:60s",
                                        "--duration",
                                        "3s",
                                        "--savepoint-dir",
                                        dir.toString()));

        assertThat(code).as(errors()).isZero();
        // Not a speed figure: far below the 60 s one record of split takes, which a hang would
        // reach.
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(25);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Summary after ");
    }

    @ParameterizedTest
    @CsvSource({"sensor-alerts, alerts", "nexmark-q8, join"})
    void runsAnEventTimeJobByNameUnderTheAutoscaler(
            String job, String operator, @TempDir Path dir) {
        int code =
                run(
                        "run",
                        job,
                        "--rate",
                        "5000",
                        "--duration",
                        "2s",
                        "--print-interval",
                        "1s",
                        "--savepoint-dir",
                        dir.toString());
        assertThat(code).as(errors()).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains(operator)
                .contains("Summary after ");
    }

    @Test
    void theEmulatedRestartReachesTheSettingsAndTheDowntimePriorAndIsOffByDefault() {
        RunSettings emulated = settings("--emulated-restart", "30s");
        assertThat(emulated.emulatedRestart()).isEqualTo(Duration.ofSeconds(30));
        assertThat(emulated.autoscaler().policy().expectedRescaleDuration())
                .as("prior: a local rescale plus the emulated restart")
                .isEqualTo(Duration.ofSeconds(32));
        assertThat(settings().emulatedRestart()).isZero();
        assertThat(settings().autoscaler().policy().expectedRescaleDuration())
                .isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void theCheckpointToleranceIsADurationThatReachesTheSettingsAndDefaultsToTheEngines() {
        RunSettings tolerant =
                settings("--checkpoint-interval", "1s", "--checkpoint-tolerance", "30s");
        assertThat(tolerant.checkpointTolerance()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings("--checkpoint-interval", "1s").checkpointTolerance())
                .as("null: the engine's default, 10 s or two intervals")
                .isNull();
    }

    private static RunSettings settings(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("wordcount"));
        command.addAll(List.of(args));
        return RunCommand.parsed(command).settings();
    }

    @Test
    void runsAJobInRecommendModeAndWritesAReport(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report.html");
        int code =
                run(
                        "run",
                        "chain",
                        "--stages",
                        "2",
                        "--stage-cost",
                        "sleep:2ms",
                        "--rate",
                        "300",
                        "--mode",
                        "recommend",
                        "--policy-interval",
                        "2s",
                        "--warm-up",
                        "500ms",
                        "--duration",
                        "7s",
                        "--print-interval",
                        "2s",
                        "--report",
                        report.toString(),
                        "--savepoint-dir",
                        dir.toString());
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(errors()).isZero();
        assertThat(text).contains("DECISION").contains("map1").contains("Summary after");
        assertThat(text).doesNotContain("RESCALED");
        String html = Files.readString(report);
        assertThat(html)
                .startsWith("<!DOCTYPE html>")
                .contains("<svg")
                .contains("map1: parallelism")
                .contains("map2: input rate")
                .contains("Decisions and rescales")
                .contains("--mode recommend")
                .doesNotContain("<script");
    }
}
