package dev.flowscale.kafka;

import java.util.List;

/**
 * What a snapshot records of one transaction the sink had prepared but not yet committed when the
 * snapshot's barrier passed: its id, and its records, so that a restore can write them again if the
 * transaction never committed (a producer of this client cannot resume another's transaction).
 */
public record PreparedTransaction(
        String transactionalId, long checkpointId, List<KeyValue> records) {

    /** One record's key (may be null) and value. */
    public record KeyValue(byte[] key, byte[] value) {}
}
