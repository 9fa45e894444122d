package dev.flowscale.kafka;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * Aborts, when a sink instance opens, the transactions a previous run of the sink left open: a
 * killed runner never aborts its open transaction, and until the broker times it out (the
 * transaction timeout) read_committed readers of its partitions see nothing written after it.
 *
 * <p>The instance asks the brokers for every ongoing transaction and fences those with this sink's
 * ids that it owns ({@link TransactionIds#owns}, so namespaces a downscale removed are covered) and
 * that the restored snapshot does not hold: numbered at or above the namespace's {@link
 * TransactionCursor}, or any number in a namespace without one (a fresh start, or an instance the
 * snapshot did not have). Transactions below a cursor are the snapshot's, which {@link
 * TransactionRecovery} finishes; the two sets never meet, so no instance fences another's work.
 */
final class LeftoverTransactions {
    private final KafkaSinkConfig config;
    private final TransactionIds ids;

    LeftoverTransactions(KafkaSinkConfig config, TransactionIds ids) {
        this.config = config;
        this.ids = ids;
    }

    /**
     * Aborts the leftovers instance {@code instance} of {@code parallelism} owns, given the
     * restored cursors by namespace; returns the ids it aborted.
     */
    List<String> abort(int instance, int parallelism, Map<Integer, Long> cursors)
            throws InterruptedException {
        try (Admin admin = KafkaClients.admin(config)) {
            List<String> leftovers =
                    ongoing(admin).stream()
                            .map(TransactionListing::transactionalId)
                            .filter(id -> isLeftover(id, instance, parallelism, cursors))
                            .sorted()
                            .toList();
            if (!leftovers.isEmpty()) {
                // Fencing bumps each id's epoch, which makes its coordinator abort the open
                // transaction; the call returns once the abort is written.
                KafkaClients.await(
                        config,
                        admin.fenceProducers(leftovers).all(),
                        "abort leftover transactions " + leftovers);
            }
            return leftovers;
        }
    }

    private boolean isLeftover(
            String transactionalId, int instance, int parallelism, Map<Integer, Long> cursors) {
        return ids.place(transactionalId)
                .filter(p -> TransactionIds.owns(instance, parallelism, p.instance()))
                .filter(p -> p.sequence() >= cursors.getOrDefault(p.instance(), 0L))
                .isPresent();
    }

    private List<TransactionListing> ongoing(Admin admin) throws InterruptedException {
        ListTransactionsOptions options =
                new ListTransactionsOptions().filterStates(Set.of(TransactionState.ONGOING));
        return List.copyOf(
                KafkaClients.await(
                        config,
                        admin.listTransactions(options).all(),
                        "list the ongoing transactions"));
    }
}
