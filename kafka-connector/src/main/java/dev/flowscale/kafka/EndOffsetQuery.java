package dev.flowscale.kafka;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * Asks the brokers for the log ends of a reader's partitions on a thread and a consumer of its own,
 * every {@code every} from one answer to the next request, and writes each answer into the reader's
 * {@link PartitionPositions} itself. So the round trip never runs on the reader's thread (there it
 * was the source's useful time: a cost per second, not per record, so the source's measured
 * capacity fell with its input rate), and the ends stay current while that thread does not fetch: a
 * source blocked on a slow downstream emits one batch for seconds. Had the ends waited for its next
 * fetch, the lag read at a window's end would be older than at its start by up to that time, and
 * the arrival rate the policy derives from it (read plus the change of the lag, over the window)
 * fell to a third of the produced rate. A failed query fails the reader at its next fetch, as a
 * query on its own thread did.
 */
final class EndOffsetQuery implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final BrokerWatch brokers;
    private final Duration timeout;
    private final PartitionPositions positions;
    private final ScheduledExecutorService thread;
    private volatile KafkaException failure;

    /**
     * Starts querying the ends of {@code positions}' partitions (none until the reader has found
     * them); {@code patience}: how long a query may go unanswered before {@link #silent()}.
     */
    EndOffsetQuery(
            KafkaSourceConfig config,
            String clientId,
            Duration patience,
            PartitionPositions positions,
            Duration every) {
        this.consumer = KafkaClients.consumer(config, clientId + "-ends");
        this.brokers = new BrokerWatch(config.clock(), patience);
        this.timeout = config.requestTimeout();
        this.positions = positions;
        this.thread =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "flowscale-" + clientId + "-ends");
                            t.setDaemon(true);
                            return t;
                        });
        thread.scheduleWithFixedDelay(this::query, 0, every.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void query() {
        Set<TopicPartition> partitions = new HashSet<>();
        positions
                .partitions()
                .forEach(p -> partitions.add(new TopicPartition(positions.topic(), p)));
        if (partitions.isEmpty() || failure != null) {
            return;
        }
        brokers.asking();
        try {
            // Assigned, never polled: a read_committed consumer warns of every answer for a
            // partition it is not assigned.
            if (!consumer.assignment().equals(partitions)) {
                consumer.assign(partitions);
            }
            consumer.endOffsets(partitions, timeout)
                    .forEach((tp, end) -> positions.endAt(tp.partition(), end));
            brokers.answered();
        } catch (KafkaException e) {
            failure = e;
        }
    }

    /**
     * Throws what the last query failed with (on the reader's thread, which explains it as it
     * explains its own calls).
     */
    void check() {
        KafkaException failed = failure;
        if (failed != null) {
            failure = null;
            throw failed;
        }
    }

    /** Whether a query has been outstanding too long for the ends it learnt to be current. */
    boolean silent() {
        return brokers.silent();
    }

    /** Aborts a query under way and closes the consumer on its own thread, without waiting. */
    @Override
    public void close() {
        consumer.wakeup();
        try {
            thread.execute(() -> consumer.close(CloseOptions.timeout(Duration.ZERO)));
        } catch (RejectedExecutionException e) {
            // closed already
        }
        thread.shutdown();
    }
}
