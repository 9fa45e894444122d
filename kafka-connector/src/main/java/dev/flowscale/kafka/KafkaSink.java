package dev.flowscale.kafka;

import dev.flowscale.engine.api.CheckpointListener;
import dev.flowscale.engine.api.Collector;
import dev.flowscale.engine.api.ListState;
import dev.flowscale.engine.api.OperatorRuntimeContext;
import dev.flowscale.engine.api.ProcessFunction;
import dev.flowscale.engine.api.StateDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Writes a stream to a Kafka topic, exactly once by two-phase commit: the records between two
 * barriers go into one transaction; when a barrier passes, the transaction is flushed (prepared)
 * and recorded in the snapshot, and it is committed once that snapshot is complete. On restore the
 * snapshot's prepared transactions are finished (see {@link TransactionRecovery}); transactions
 * after it are aborted when the failed run closes, or time out if its process was killed. Readers
 * that must see each record once read with {@code isolation.level=read_committed}.
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

    private final KafkaSinkConfig config;
    private final KafkaRecordSerializer<? super T> serializer;
    private final NavigableMap<Long, SinkTransaction> awaitingCommit = new TreeMap<>();
    private ListState<PreparedTransaction> prepared;
    private List<PreparedTransaction> preparedList = new ArrayList<>();
    private String idPrefix;
    private SinkTransaction current;
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
        idPrefix =
                config.transactionalIdPrefix()
                        + "-"
                        + context.operatorId()
                        + "-"
                        + context.instanceIndex()
                        + "-";
        prepared = context.operatorListState(PREPARED);
        List<PreparedTransaction> restored = new ArrayList<>();
        prepared.get().forEach(restored::add);
        new TransactionRecovery(config).recover(restored);
        prepared.clear();
    }

    @Override
    public void processElement(T value, Collector<Void> out) {
        byte[] key = serializer.key(value);
        byte[] bytes = serializer.value(value);
        if (plain != null) {
            plain.send(key, bytes);
            return;
        }
        if (current == null) {
            // A fresh id per transaction: a restore asks the broker about exactly this one.
            current = SinkTransaction.begin(config, idPrefix + UUID.randomUUID());
        }
        current.send(key, bytes);
        current.checkSent();
    }

    @Override
    public void snapshotState(long checkpointId) throws Exception {
        if (plain != null) {
            plain.flush();
            return;
        }
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
        }
    }
}
