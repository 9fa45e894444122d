package dev.flowscale.engine.runtime;

/**
 * The loops that hand a data batch's records to an operator when nothing else is due per record (no
 * synthetic cost). The batch's kind is decided once: records with or without the keys their
 * producer selected, with or without event times, so each loop calls the operator and does nothing
 * else per record. An instance that publishes its pending counts within a batch runs the same loop
 * over the batch's slices, publishing between them.
 */
final class RecordLoops {
    private RecordLoops() {}

    /** Records {@code from} (inclusive) to {@code to} (exclusive) of {@code batch}, in order. */
    static void run(Batch batch, int from, int to, OperatorLogic logic, TaskOutput out)
            throws Exception {
        if (batch.keys == null) {
            if (batch.timestamps == null) {
                plain(batch.records, from, to, logic, out);
            } else {
                timed(batch.records, batch.timestamps, from, to, logic, out);
            }
        } else if (batch.timestamps == null) {
            keyed(batch, from, to, logic, out);
        } else {
            keyedTimed(batch, from, to, logic, out);
        }
    }

    private static void plain(
            Object[] records, int from, int to, OperatorLogic logic, TaskOutput out)
            throws Exception {
        for (int i = from; i < to; i++) {
            logic.process(records[i], out);
        }
    }

    /** Each record's time becomes the time of what it emits. */
    private static void timed(
            Object[] records,
            long[] timestamps,
            int from,
            int to,
            OperatorLogic logic,
            TaskOutput out)
            throws Exception {
        for (int i = from; i < to; i++) {
            out.timestamp = timestamps[i];
            logic.process(records[i], out);
        }
    }

    private static void keyed(Batch batch, int from, int to, OperatorLogic logic, TaskOutput out)
            throws Exception {
        Object[] records = batch.records;
        Object[] keys = batch.keys;
        int[] hashes = batch.keyHashes;
        for (int i = from; i < to; i++) {
            logic.processKeyed(records[i], keys[i], hashes[i], out);
        }
    }

    private static void keyedTimed(
            Batch batch, int from, int to, OperatorLogic logic, TaskOutput out) throws Exception {
        Object[] records = batch.records;
        Object[] keys = batch.keys;
        int[] hashes = batch.keyHashes;
        long[] timestamps = batch.timestamps;
        for (int i = from; i < to; i++) {
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
