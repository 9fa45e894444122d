package dev.flowscale.engine.checkpoint;

/**
 * What a task reports when it has written its part of a snapshot: the file (relative to the
 * snapshot directory), its length and CRC-32, and the key groups it holds.
 */
public record TaskStateHandle(String operatorId, int instance, String file, long bytes, long crc32,
                              int keyGroupStart, int keyGroupEnd) {
}
