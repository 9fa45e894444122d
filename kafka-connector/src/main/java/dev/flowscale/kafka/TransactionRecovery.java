package dev.flowscale.kafka;

import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * Finishes on restore what the restored snapshot says the sink had prepared: a transaction the
 * broker committed stays as it is; any other (still open, aborted, or begun but empty) is fenced,
 * which aborts it, and its records are written again in a transaction of the same id, committed at
 * once. The snapshot is complete, so its transactions must all be committed, exactly once.
 */
final class TransactionRecovery {
    private static final Set<TransactionState> COMMITTED =
            Set.of(TransactionState.COMPLETE_COMMIT, TransactionState.PREPARE_COMMIT);

    private final KafkaSinkConfig config;

    TransactionRecovery(KafkaSinkConfig config) {
        this.config = config;
    }

    /** Commits every transaction in {@code prepared} exactly once; returns how many it rewrote. */
    int recover(List<PreparedTransaction> prepared) throws InterruptedException {
        if (prepared.isEmpty()) {
            return 0;
        }
        int rewritten = 0;
        try (Admin admin = KafkaClients.admin(config)) {
            for (PreparedTransaction transaction : prepared) {
                if (!COMMITTED.contains(state(admin, transaction.transactionalId()))) {
                    rewrite(transaction);
                    rewritten++;
                }
            }
        }
        return rewritten;
    }

    private TransactionState state(Admin admin, String transactionalId)
            throws InterruptedException {
        return KafkaClients.await(
                        config,
                        admin.describeTransactions(List.of(transactionalId))
                                .description(transactionalId),
                        "learn whether transaction "
                                + transactionalId
                                + " of the restored snapshot committed")
                .state();
    }

    private void rewrite(PreparedTransaction prepared) {
        SinkTransaction again = SinkTransaction.begin(config, prepared.transactionalId());
        prepared.records().forEach(r -> again.send(r.key(), r.value()));
        again.prepare(prepared.checkpointId());
        again.commit();
    }
}
