package dev.flowscale.kafka;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
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
        try (Admin admin = admin()) {
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
        try {
            return admin.describeTransactions(List.of(transactionalId))
                    .description(transactionalId)
                    .get(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                    .state();
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new KafkaConnectorException(
                    "kafka sink of topic '"
                            + config.topic()
                            + "': cannot learn whether transaction "
                            + transactionalId
                            + " of the restored snapshot committed: "
                            + (e.getCause() == null ? e : e.getCause())
                            + "; check that the brokers at "
                            + config.bootstrapServers()
                            + " run and that the principal may describe transactional ids",
                    e);
        }
    }

    private void rewrite(PreparedTransaction prepared) {
        SinkTransaction again = SinkTransaction.begin(config, prepared.transactionalId());
        prepared.records().forEach(r -> again.send(r.key(), r.value()));
        again.prepare(prepared.checkpointId());
        again.commit();
    }

    private Admin admin() {
        Properties properties = new Properties();
        properties.putAll(config.clientProperties());
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        properties.put(
                CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG,
                (int) config.requestTimeout().toMillis());
        return Admin.create(properties);
    }
}
