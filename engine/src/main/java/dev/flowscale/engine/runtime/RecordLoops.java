package dev.flowscale.engine.runtime;

/**
 * The loops that hand a data batch's records to an operator when nothing else is due per record (no
 * synthetic cost, no pending count to publish). The batch's kind is decided once: records with or
 * without the keys their producer selected, with or without event times, so each loop calls the
 * operator and does nothing else per record.
 */
final class RecordLoops {
    private RecordLoops() {}

    /** Every record of {@code batch}, in order. */
    static void run(Batch batch, OperatorLogic logic, TaskOutput out) throws Exception {
        if (batch.keys == null) {
            if (batch.timestamps == null) {
                plain(batch.records, batch.size, logic, out);
            } else {
                timed(batch.records, batch.timestamps, batch.size, logic, out);
            }
        } else if (batch.timestamps == null) {
            keyed(batch, logic, out);
        } else {
            keyedTimed(batch, logic, out);
        }
    }

    private static void plain(Object[] records, int size, OperatorLogic logic, TaskOutput out)
            throws Exception {
        for (int i = 0; i < size; i++) {
            logic.process(records[i], out);
        }
    }

    /** Each record's time becomes the time of what it emits. */
    private static void timed(
            Object[] records, long[] timestamps, int size, OperatorLogic logic, TaskOutput out)
            throws Exception {
        for (int i = 0; i < size; i++) {
            out.timestamp = timestamps[i];
            logic.process(records[i], out);
        }
    }

    private static void keyed(Batch batch, OperatorLogic logic, TaskOutput out) throws Exception {
        Object[] records = batch.records;
        Object[] keys = batch.keys;
        int[] hashes = batch.keyHashes;
        for (int i = 0; i < batch.size; i++) {
            logic.processKeyed(records[i], keys[i], hashes[i], out);
        }
    }

    private static void keyedTimed(Batch batch, OperatorLogic logic, TaskOutput out)
            throws Exception {
        Object[] records = batch.records;
        Object[] keys = batch.keys;
        int[] hashes = batch.keyHashes;
        long[] timestamps = batch.timestamps;
        for (int i = 0; i < batch.size; i++) {
            out.timestamp = timestamps[i];
            logic.processKeyed(records[i], keys[i], hashes[i], out);
        }
    }

    /** Record {@code i} of a batch, keyed by its producer's key when the batch carries keys. */
    static void one(Batch batch, int i, OperatorLogic logic, TaskOutput out) throws Exception {
        if (batch.timestamps != null) {
            out.timestamp = batch.timestamps[i];
        }
        if (batch.keys == null) {
            logic.process(batch.records[i], out);
        } else {
            logic.processKeyed(batch.records[i], batch.keys[i], batch.keyHashes[i], out);
        }
    }
}
