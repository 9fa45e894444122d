package dev.flowscale.kafka;

import dev.flowscale.engine.api.CheckpointListener;
import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.OperatorRuntimeContext;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.api.StateDescriptor;
import dev.flowscale.kafka.PreparedTransaction.KeyValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Writes a stream to a Kafka topic, exactly once by two-phase commit: the records between two
 * barriers go into one transaction; when a barrier passes, the transaction is flushed (prepared)
 * and recorded in the snapshot, and it is committed once that snapshot is complete. On restore the
 * snapshot's prepared transactions are finished (see {@link TransactionRecovery}), and those the
 * failed run opened after it are aborted: by the failed run as it closes, or, if its process was
 * killed, by the restored run as it opens (see {@link LeftoverTransactions}), at any parallelism.
 * Readers that must see each record once read with {@code isolation.level=read_committed}.
 *
 * <p>With {@link KafkaSinkConfig.Guarantee#AT_LEAST_ONCE} it writes without transactions and waits
 * at each barrier until every record is acknowledged, so a restore may repeat records but never
 * loses one.
 *
 * <p>Use it as the last operator: {@code stream.process("to-kafka", KafkaSink.of(config,
 * serializer))}.
 */
public final class KafkaSink<T> extends ProcessFunction<T, Void> implements CheckpointListener {
    private static final StateDescriptor<PreparedTransaction> PREPARED =
            StateDescriptor.list("kafka-sink-prepared", PreparedTransaction.class);

    /** A union list: every instance of a restore sees every instance's cursor. */
    private static final StateDescriptor<TransactionCursor> CURSORS =
            StateDescriptor.list("kafka-sink-cursors", TransactionCursor.class);

    private final KafkaSinkConfig config;
    private final KafkaRecordSerializer<? super T> serializer;
    private final NavigableMap<Long, SinkTransaction> awaitingCommit = new TreeMap<>();
    private ListState<PreparedTransaction> prepared;
    private List<PreparedTransaction> preparedList = new ArrayList<>();
    private ListState<TransactionCursor> cursors;
    private TransactionIds ids;
    private int instance;
    private long nextSequence;
    private SinkTransaction current;

    /** The id of the interval's transaction once a record has come for it; null before. */
    private String currentId;

    /** Records that came before the interval's transaction had opened, in order. */
    private final List<KeyValue> held = new ArrayList<>();

    private NextTransaction<SinkTransaction> next;
    private AtLeastOnceWriter plain;
    private boolean closed;

    private KafkaSink(KafkaSinkConfig config, KafkaRecordSerializer<? super T> serializer) {
        this.config = config;
        this.serializer = serializer;
    }

    /** One sink function per instance, for {@code DataStream.process}. */
    public static <T> Supplier<KafkaSink<T>> of(
            KafkaSinkConfig config, KafkaRecordSerializer<? super T> serializer) {
        if (config == null || serializer == null) {
            throw new KafkaConnectorException("kafka sink: config and serializer are required");
        }
        return () -> new KafkaSink<>(config, serializer);
    }

    @Override
    public void open(OperatorRuntimeContext context) throws Exception {
        if (config.guarantee() == KafkaSinkConfig.Guarantee.AT_LEAST_ONCE) {
            plain = new AtLeastOnceWriter(config, context.jobName() + "-" + context.operatorId());
            return;
        }
        ids = new TransactionIds(config.transactionalIdPrefix(), context.operatorId());
        instance = context.instanceIndex();
        prepared = context.operatorListState(PREPARED);
        cursors = context.unionListState(CURSORS);
        recover(context.parallelism());
        next =
                new NextTransaction<>(
                        id -> SinkTransaction.begin(config, id),
                        SinkTransaction::abort,
                        "kafka-sink-open-" + context.operatorId() + "-" + instance);
        next.openAhead(ids.id(instance, nextSequence));
    }

    /**
     * Aborts what a failed run left open, then commits what the restored snapshot prepared; both
     * before this instance opens a transaction of its own.
     */
    private void recover(int parallelism) throws InterruptedException {
        Map<Integer, Long> restoredCursors = new HashMap<>();
        cursors.get()
                .forEach(c -> restoredCursors.merge(c.instance(), c.nextSequence(), Math::max));
        nextSequence = restoredCursors.getOrDefault(instance, 0L);
        new LeftoverTransactions(config, ids).abort(instance, parallelism, restoredCursors);
        List<PreparedTransaction> restored = new ArrayList<>();
        prepared.get().forEach(restored::add);
        new TransactionRecovery(config).recover(restored);
        prepared.clear();
        cursors.clear();
    }

    @Override
    public void processElement(T value, Collector<Void> out) throws InterruptedException {
        byte[] key = serializer.key(value);
        byte[] bytes = serializer.value(value);
        if (plain != null) {
            plain.send(key, bytes);
            return;
        }
        if (current == null) {
            if (currentId == null) {
                // The next id of this instance's namespace: a restore finds the ones after its
                // snapshot through the cursor, and asks the broker about each one before it.
                currentId = ids.id(instance, nextSequence++);
            }
            // Opened ahead, off the record path (see NextTransaction). Until the opening has
            // finished, records are held rather than waited for: the wait is the broker's, a
            // cost per checkpoint, and on the record path it counted as useful time.
            current = next.takeIfOpened(currentId);
            if (current == null) {
                held.add(new KeyValue(key, bytes));
                return;
            }
            sendHeld();
        }
        current.send(key, bytes);
        current.checkSent();
    }

    private void sendHeld() {
        held.forEach(r -> current.send(r.key(), r.value()));
        held.clear();
        current.checkSent();
    }

    @Override
    public void snapshotState(long checkpointId) throws Exception {
        if (plain != null) {
            plain.flush();
            return;
        }
        if (currentId != null && current == null) {
            // At the barrier (not useful time): the opening had the whole interval to finish.
            current = next.take(currentId);
            sendHeld();
        }
        currentId = null;
        List<PreparedTransaction> snapshot = new ArrayList<>();
        synchronized (awaitingCommit) {
            if (current != null) {
                preparedList.add(current.prepare(checkpointId));
                awaitingCommit.put(checkpointId, current);
                current = null;
            }
            snapshot.addAll(preparedList);
        }
        prepared.update(snapshot);
        // The cursor is the first id not taken: one opened ahead but not yet taken is at or after
        // it, so a restore of this snapshot aborts it if it was written to after the snapshot.
        cursors.update(List.of(new TransactionCursor(instance, nextSequence)));
        next.openAhead(ids.id(instance, nextSequence));
    }

    /** Commits every transaction prepared at or before this snapshot. */
    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        synchronized (awaitingCommit) {
            if (closed) {
                return;
            }
            NavigableMap<Long, SinkTransaction> due = awaitingCommit.headMap(checkpointId, true);
            due.values().forEach(SinkTransaction::commit);
            due.clear();
            preparedList.removeIf(p -> p.checkpointId() <= checkpointId);
        }
    }

    /**
     * Aborts what is not committed: the snapshots that hold those transactions write their records
     * again on restore, and those that do not never count.
     */
    @Override
    public void close() {
        if (plain != null) {
            plain.close();
            return;
        }
        synchronized (awaitingCommit) {
            closed = true;
            awaitingCommit.values().forEach(SinkTransaction::abort);
            awaitingCommit.clear();
            if (current != null) {
                current.abort();
                current = null;
            }
            held.clear();
        }
        if (next != null) {
            next.close();
        }
    }
}
