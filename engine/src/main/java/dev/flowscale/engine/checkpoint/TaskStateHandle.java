package dev.flowscale.engine.checkpoint;

/**
 * What a task reports when it has written its part of a snapshot: the file (a plain name inside the
 * snapshot directory), its length and CRC-32, the key groups it holds and how many source splits it
 * holds (0 for operators other than sources).
 */
public record TaskStateHandle(
        String operatorId,
        int instance,
        String file,
        long bytes,
        long crc32,
        int keyGroupStart,
        int keyGroupEnd,
        int splits) {}
