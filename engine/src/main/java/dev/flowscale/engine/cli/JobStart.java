package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.InvalidJobException;
import dev.flowscale.engine.checkpoint.Recovery;
import dev.flowscale.engine.graph.JobGraph;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * How a command that runs a job on snapshot storage starts it, the runner's {@code run} and {@code
 * flowscale run} alike: from the newest complete snapshot in the storage that restores (or {@code
 * --restore-from} if newer), saying which; refused if the storage holds snapshots of which none
 * restores; from nothing only with {@value Recovery#START_FRESH}, which leaves the stored snapshots
 * alone (retention deletes only snapshots the run wrote itself).
 */
public final class JobStart {
    private JobStart() {}

    /**
     * @param fresh {@value Recovery#START_FRESH} was given
     * @param restoreFrom {@code --restore-from}, or null
     * @param log hears the one line saying what was restored, and every snapshot skipped
     */
    public static RunningJob start(
            JobGraph graph,
            JobConfig config,
            boolean fresh,
            Path restoreFrom,
            Consumer<String> log) {
        if (!fresh) {
            return RunningJob.recover(graph, config, restoreFrom, log);
        }
        if (restoreFrom != null) {
            throw new InvalidJobException(
                    "option "
                            + Recovery.START_FRESH
                            + " starts from nothing and --restore-from from a snapshot; give one of"
                            + " them");
        }
        log.accept(
                "starting fresh ("
                        + Recovery.START_FRESH
                        + "); the snapshots already in "
                        + config.checkpointing().storage()
                        + " are kept");
        return RunningJob.start(graph, config);
    }

    /**
     * A job name as one folder under flowscale-data: a name such as the operator's "namespace/name"
     * or "../x" must not reach outside that folder or nest, so every character but letters, digits,
     * '.', '_' and '-' becomes '_', and a name of dots only is prefixed.
     */
    public static String folderName(String jobName) {
        String folder = jobName.replaceAll("[^A-Za-z0-9._-]", "_");
        return folder.isEmpty() || folder.chars().allMatch(c -> c == '.') ? "job" + folder : folder;
    }
}
