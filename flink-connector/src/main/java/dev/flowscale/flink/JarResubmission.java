package dev.flowscale.flink;

import java.util.List;
import java.util.Objects;

/**
 * How the savepoint path starts the job again: the jar uploaded to the cluster ({@code POST
 * jars/upload}) that the job was started from, its entry class and program arguments. Flink's REST
 * API cannot resubmit a running job's graph, so the program is run again ({@code POST
 * jars/:jarid/run}) from the savepoint, with per-vertex parallelism overrides; vertex ids are the
 * same because the program builds the same graph (give every operator a uid).
 *
 * @param entryClass null: the jar manifest's main class
 */
public record JarResubmission(String jarId, String entryClass, List<String> programArgs) {

    public JarResubmission {
        if (jarId == null || jarId.isBlank()) {
            throw new FlinkConnectorException(
                    "jar resubmission needs the id of a jar uploaded to the Flink cluster; pass --jar");
        }
        programArgs = List.copyOf(Objects.requireNonNull(programArgs, "program arguments"));
    }
}
