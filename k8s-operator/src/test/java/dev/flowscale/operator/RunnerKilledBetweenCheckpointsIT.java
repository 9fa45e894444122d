package dev.flowscale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.operator.api.AutoscalerMode;
import dev.flowscale.operator.api.JobPhase;
import dev.flowscale.operator.api.StreamJob;
import dev.flowscale.operator.core.Conditions;
import dev.flowscale.operator.core.ParallelismText;
import dev.flowscale.operator.runner.RunnerProblems;
import dev.flowscale.operator.runner.RunnerWatch;
import dev.flowscale.runner.api.CheckpointStatus;
import dev.flowscale.runner.api.MetricsView;
import dev.flowscale.runner.api.RunnerClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A StreamJob's runner killed with SIGKILL between two periodic checkpoints while records flow, as
 * an OOM kill would, on the mock API server with a real runner process played by {@link
 * LocalKubelet}: the kubelet restarts the container with the same args, the runner resumes from the
 * newest checkpoint in the job's storage (not from nothing, not from its start), the StreamJob
 * shows the crash and then Running again, and the savepoint taken when the job is suspended, after
 * the records replayed from the checkpoint, holds each word's count of exactly the sentences it
 * covers: none lost, none twice.
 *
 * <p>The input is wordcount's endless, deterministic sentence stream rather than a {@code --limit}:
 * a runner whose bounded input ends finishes its job, and a finished job takes no savepoint. The
 * counts are still known: the savepoint records the source's position in each of its splits, and
 * each word must be counted exactly as often as in the sentences below those positions (a lost or
 * replayed-twice range of sentences breaks that for some word). That set is not "sentences 0 to
 * n-1": the restored source emits round robin over four splits, a whole batch from one split at a
 * time, so while it works off the backlog of its downtime (long on a loaded machine) its splits
 * stand at different positions (see the engine's GeneratorProgress). The snapshots are read with
 * the runner's jar in a process of its own ({@link SnapshotReport}).
 */
class RunnerKilledBetweenCheckpointsIT {
    /** The built-in wordcount's operators. */
    private static final String SOURCE = "sentences";

    private static final String SPLIT = "split";
    private static final String COUNT = "count";
    private static final int WORDS_PER_SENTENCE = 10;
    private static final int VOCABULARY = 100;
    private static final List<String> JOB_ARGS =
            List.of("--rate", "1500", "--vocabulary", String.valueOf(VOCABULARY));
    private static final Map<String, Integer> PARALLELISM = Map.of(SPLIT, 1, COUNT, 2);
    private static final Pattern RESTORED =
            Pattern.compile(
                    "restore: restoring the latest complete snapshot in storage, checkpoint (\\d+) at (\\S+) ");
    final RunnerClusterFixture cluster = new RunnerClusterFixture();

    @TempDir Path dir;

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aRunnerKilledBetweenCheckpointsResumesFromTheNewestOneAndCountsEveryWordExactlyOnce()
            throws Exception {
        cluster.startOnSystemClock(dir, "4", countedJob());
        RunnerJobHarness.awaitJob(cluster.client, j -> j.getStatus().phase == JobPhase.Running);
        long committed = awaitCheckpoint(2).lastCompletedId();
        long emitted = recordsOut(SOURCE);

        cluster.kubelet.kill();

        RunnerJobHarness.awaitJob(
                cluster.client,
                j ->
                        Conditions.find(j.getStatus(), RunnerWatch.CONDITION)
                                .filter(
                                        c ->
                                                "False".equals(c.getStatus())
                                                        && RunnerProblems.CRASH_LOOP.equals(
                                                                c.getReason()))
                                .isPresent());
        StreamJob back =
                RunnerJobHarness.awaitJob(
                        cluster.client,
                        j ->
                                cluster.kubelet.restarts() == 1
                                        && j.getStatus().phase == JobPhase.Running);
        assertThat(
                        Conditions.find(back.getStatus(), RunnerWatch.CONDITION)
                                .orElseThrow()
                                .getStatus())
                .isEqualTo("True");
        restoreLine(1, Pattern.compile("^restore: no complete snapshot in .*: starting fresh$"));
        Matcher restored = restoreLine(2, RESTORED);
        long restoredId = Long.parseLong(restored.group(1));
        assertThat(restoredId)
                .as("the checkpoint the restarted runner resumed from")
                .isGreaterThanOrEqualTo(committed);
        assertThat(Path.of(restored.group(2)))
                .isEqualTo(storage().resolve("checkpoints").resolve("chk-" + restoredId));

        awaitReplayedPastTheKill(Path.of(restored.group(2)), emitted);
        RunnerJobHarness.editSpec(cluster.client, j -> j.getSpec().suspend = true);
        StreamJob suspended =
                RunnerJobHarness.awaitJob(
                        cluster.client, j -> j.getStatus().phase == JobPhase.Suspended);

        Path savepoint = Path.of(suspended.getStatus().lastSavepoint);
        assertThat(savepoint).startsWith(storage().resolve("savepoints"));
        SnapshotReport report = read(savepoint);
        long words = report.words();
        System.out.printf(
                "killed after checkpoint %d with %d sentences emitted; resumed from checkpoint %d;"
                        + " the final savepoint counts %d words of %d sentences; its source"
                        + " positions %s (sentences 0 to n-1: %s)%n",
                committed,
                emitted,
                restoredId,
                words,
                words / WORDS_PER_SENTENCE,
                report.splits(),
                report.prefix());
        assertThat(words % WORDS_PER_SENTENCE).as("words counted: whole sentences only").isZero();
        assertThat(words / WORDS_PER_SENTENCE)
                .as("sentences counted: past those emitted before the kill")
                .isGreaterThanOrEqualTo(emitted);
        assertThat(report.wrong())
                .as(
                        "words whose count in the final savepoint differs from that of the "
                                + report.sentences()
                                + " sentences its source positions "
                                + report.splits()
                                + " say were emitted, each counted once: "
                                + report.examples())
                .isZero();
        assertThat(cluster.kubelet.restarts())
                .as("the kill restarted the container once, with the same args")
                .isEqualTo(1);
        assertThat(cluster.kubelet.started())
                .as("runner processes: the first and its restart")
                .isEqualTo(2);
    }

    /** Built-in wordcount, checkpointing every second, its storage in the test's folder. */
    private StreamJob countedJob() {
        StreamJob job =
                AutoscalingIT.bottleneckedWordCount(
                        RunnerJobHarness.NS, "wc", AutoscalerMode.OFF, dir.resolve("claim"));
        job.getSpec().job.args = JOB_ARGS;
        job.getSpec().parallelism.clear();
        job.getSpec().parallelism.putAll(PARALLELISM);
        job.getSpec().savepoints.checkpointInterval = "1s";
        return job;
    }

    /** The job's storage: the runner's --savepoint-dir, the claim path plus namespace and name. */
    private Path storage() {
        return dir.resolve("claim").resolve(RunnerJobHarness.NS).resolve("wc");
    }

    private RunnerClient runner() {
        return RunnerClient.connect(cluster.kubelet.address(), Duration.ofSeconds(5), null);
    }

    /** Waits until the runner has committed checkpoint {@code id} or a later one. */
    private CheckpointStatus awaitCheckpoint(long id) {
        return Eventually.await(
                RunnerJobHarness.WAIT,
                "checkpoint " + id + " committed",
                () -> runner().job().checkpoints(),
                c -> c != null && c.lastCompletedId() != null && c.lastCompletedId() >= id);
    }

    private long recordsOut(String operator) {
        return counts(runner().metrics(), operator, MetricsView.InstanceCounts::recordsOut);
    }

    private static long counts(
            MetricsView metrics,
            String operator,
            ToLongFunction<MetricsView.InstanceCounts> counter) {
        return metrics.instances().stream()
                .filter(i -> operator.equals(i.operatorId()))
                .mapToLong(counter)
                .sum();
    }

    /** The line of the runner's {@code container}-th start (its log) saying what it restored. */
    private Matcher restoreLine(int container, Pattern pattern) throws IOException {
        Path log = dir.resolve("runner-" + container + ".log");
        List<String> lines = Files.readAllLines(log);
        String line =
                lines.stream()
                        .filter(l -> l.startsWith("restore: "))
                        .reduce((first, last) -> last)
                        .orElseThrow(
                                () ->
                                        new AssertionError(
                                                "no restore line in " + log + ": " + lines));
        Matcher restored = pattern.matcher(line);
        assertThat(restored.find())
                .as("start " + container + "'s restore line")
                .withFailMessage("start %d restored: %s", container, line)
                .isTrue();
        return restored;
    }

    /**
     * Waits until the restarted runner has counted past the point of the kill: the words in the
     * restored checkpoint plus those counted since cover every sentence emitted before the kill, so
     * the final savepoint holds the records replayed from the checkpoint (counted twice if recovery
     * were not exactly once).
     */
    private void awaitReplayedPastTheKill(Path checkpoint, long sentencesBeforeKill)
            throws IOException, InterruptedException {
        long restored = read(checkpoint).words();
        assertThat(restored).as("words counted in the restored checkpoint").isPositive();
        long needed = sentencesBeforeKill * WORDS_PER_SENTENCE;
        Eventually.await(
                RunnerJobHarness.WAIT,
                needed + " words counted (" + restored + " in the restored checkpoint)",
                () -> counts(runner().metrics(), COUNT, MetricsView.InstanceCounts::recordsIn),
                since -> restored + since >= needed);
    }

    /** What {@code snapshot} holds, read by the runner's jar in a process of its own. */
    private static SnapshotReport read(Path snapshot) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(JOB_ARGS);
        args.addAll(List.of("--parallelism", ParallelismText.arg(PARALLELISM)));
        return SnapshotReport.of(snapshot, WORDS_PER_SENTENCE, VOCABULARY, args);
    }
}
