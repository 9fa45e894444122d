package dev.flowscale.engine.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.engine.state.RocksDbFile;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Checks a manifest's shape before it is bound to {@link SnapshotMetadata}: every field is present
 * and of its type (a null or missing field is named by its path, e.g. {@code
 * operators[1].instances[0].file}), and every file named is a plain file name inside the snapshot's
 * own directory, named once.
 */
final class ManifestFields {
    private static final List<String> TOP_NUMBERS =
            List.of(
                    "checkpointId",
                    "createdAtEpochMillis",
                    SnapshotMetadata.KEY_GROUPS_FIELD,
                    "epoch");
    private static final List<String> HANDLE_NUMBERS =
            List.of("instance", "bytes", "crc32", "keyGroupStart", "keyGroupEnd", "splits");

    private ManifestFields() {}

    static void check(Path dir, JsonNode json) {
        require(dir, json, "jobName", "", JsonNode::isTextual);
        require(dir, json, "type", "", JsonNode::isTextual);
        require(dir, json, ManifestFile.CHECKSUM, "", JsonNode::isTextual);
        TOP_NUMBERS.forEach(name -> require(dir, json, name, "", JsonNode::isIntegralNumber));
        JsonNode operators = require(dir, json, "operators", "", JsonNode::isArray);
        for (int o = 0; o < operators.size(); o++) {
            String at = "operators[" + o + "].";
            JsonNode operator = operators.get(o);
            require(dir, operator, "id", at, JsonNode::isTextual);
            require(dir, operator, "parallelism", at, JsonNode::isIntegralNumber);
            JsonNode instances = require(dir, operator, "instances", at, JsonNode::isArray);
            for (int i = 0; i < instances.size(); i++) {
                checkHandle(dir, instances.get(i), at + "instances[" + i + "].");
            }
        }
    }

    private static void checkHandle(Path dir, JsonNode handle, String at) {
        require(dir, handle, "operatorId", at, JsonNode::isTextual);
        require(dir, handle, "file", at, JsonNode::isTextual);
        HANDLE_NUMBERS.forEach(name -> require(dir, handle, name, at, JsonNode::isIntegralNumber));
    }

    private static JsonNode require(
            Path dir, JsonNode parent, String name, String at, Predicate<JsonNode> type) {
        JsonNode value = parent == null || !parent.isObject() ? null : parent.get(name);
        if (value == null || value.isNull() || !type.test(value)) {
            String problem =
                    value == null
                            ? "is missing"
                            : value.isNull() ? "is null" : "has the wrong type";
            throw new SnapshotException(
                    "snapshot "
                            + dir
                            + " is corrupt: manifest field '"
                            + at
                            + name
                            + "' "
                            + problem
                            + "; the manifest was edited or damaged: restore an earlier snapshot");
        }
        return value;
    }

    /** A RocksDB instance's files have plain names, each named once (checked on restore). */
    private static void checkRocksDbFiles(
            Path dir, String operator, TaskStateHandle handle, Set<String> seen) {
        RocksDbSnapshot rocksDb = handle.rocksDb();
        if (rocksDb == null) {
            return;
        }
        if (rocksDb.files() == null || rocksDb.states() == null || rocksDb.files().contains(null)) {
            throw corruptEntry(
                    dir, operator, handle, "has a RocksDB entry without its files or states");
        }
        for (RocksDbFile file : rocksDb.files()) {
            if (Stream.of(file.name(), file.file(), file.sha256())
                    .anyMatch(ManifestFields::unsafe)) {
                throw corruptEntry(
                        dir,
                        operator,
                        handle,
                        "has a RocksDB file entry with a missing or unsafe name (" + file + ")");
            }
            if (!file.shared() && !seen.add(file.file())) {
                throw corruptEntry(dir, operator, handle, "names file '" + file.file() + "' twice");
            }
        }
    }

    /** Null, empty, a path rather than a plain name, or hidden (as {@code ..} is). */
    private static boolean unsafe(String name) {
        return name == null
                || name.isEmpty()
                || name.contains("/")
                || name.contains("\\")
                || name.startsWith(".");
    }

    private static SnapshotException corruptEntry(
            Path dir, String operator, TaskStateHandle handle, String problem) {
        return new SnapshotException(
                "snapshot "
                        + dir
                        + " is corrupt: operator '"
                        + operator
                        + "' instance "
                        + handle.instance()
                        + " "
                        + problem
                        + "; restore an earlier snapshot");
    }

    /** Every file is a plain name that resolves inside {@code dir}, and no file is named twice. */
    static void checkFiles(Path dir, SnapshotMetadata metadata) {
        Path root = dir.toAbsolutePath().normalize();
        Set<String> seen = new HashSet<>();
        for (SnapshotMetadata.OperatorEntry operator : metadata.operators()) {
            for (TaskStateHandle handle : operator.instances()) {
                Path file = root.resolve(handle.file()).normalize();
                if (!root.equals(file.getParent())
                        || !file.getFileName().toString().equals(handle.file())) {
                    throw new SnapshotException(
                            "snapshot "
                                    + dir
                                    + " is corrupt: operator '"
                                    + operator.id()
                                    + "' instance "
                                    + handle.instance()
                                    + " names file '"
                                    + handle.file()
                                    + "', which lies "
                                    + "outside this snapshot's folder; a snapshot only restores its own files");
                }
                checkRocksDbFiles(dir, operator.id(), handle, seen);
                if (!seen.add(handle.file())) {
                    throw new SnapshotException(
                            "snapshot "
                                    + dir
                                    + " is corrupt: file '"
                                    + handle.file()
                                    + "' is named twice in the manifest; restore an earlier snapshot");
                }
            }
        }
    }
}
