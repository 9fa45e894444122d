package dev.flowscale.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * Asks the brokers for the log ends of a reader's partitions on a thread and a consumer of its own,
 * so that the round trip never runs on the reader's thread. There it was the source's useful time:
 * a cost per second, not per record, so the source's measured capacity fell with its input rate (at
 * half the input, a twentieth of it on a loaded machine), which an autoscaler reads as a
 * bottleneck. The reader hands over the partitions to ask about and takes the answers when it
 * polls; a failed query fails the reader at its next poll, as a query on its own thread did.
 */
final class EndOffsetQuery implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final BrokerWatch brokers;
    private final Duration timeout;
    private final ExecutorService thread;
    private final AtomicBoolean asking = new AtomicBoolean();
    private final Map<TopicPartition, Long> answers = new ConcurrentHashMap<>();
    private volatile KafkaException failure;

    /** {@code patience}: how long a query may go unanswered before {@link #silent()}. */
    EndOffsetQuery(KafkaSourceConfig config, String clientId, Duration patience) {
        this.consumer = KafkaClients.consumer(config, clientId + "-ends");
        this.brokers = new BrokerWatch(config.clock(), patience);
        this.timeout = config.requestTimeout();
        this.thread =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "flowscale-" + clientId + "-ends");
                            t.setDaemon(true);
                            return t;
                        });
    }

    /** Starts a query of {@code partitions}' ends unless one is under way. */
    void ask(Set<TopicPartition> partitions) {
        if (partitions.isEmpty() || !asking.compareAndSet(false, true)) {
            return;
        }
        Set<TopicPartition> asked = Set.copyOf(partitions);
        try {
            thread.execute(() -> query(asked));
        } catch (RejectedExecutionException e) {
            asking.set(false); // closed meanwhile
        }
    }

    private void query(Set<TopicPartition> partitions) {
        brokers.asking();
        try {
            // Assigned, never polled: a read_committed consumer warns of every answer for a
            // partition it is not assigned.
            if (!consumer.assignment().equals(partitions)) {
                consumer.assign(partitions);
            }
            answers.putAll(consumer.endOffsets(partitions, timeout));
            brokers.answered();
        } catch (KafkaException e) {
            failure = e;
        } finally {
            asking.set(false);
        }
    }

    /**
     * The ends learnt since the last call; throws what the last query failed with (on the reader's
     * thread, which explains it as it explains its own calls).
     */
    Map<TopicPartition, Long> take() {
        KafkaException failed = failure;
        if (failed != null) {
            failure = null;
            throw failed;
        }
        Map<TopicPartition, Long> taken = new HashMap<>();
        for (TopicPartition tp : Set.copyOf(answers.keySet())) {
            Long end = answers.remove(tp);
            if (end != null) {
                taken.put(tp, end);
            }
        }
        return taken;
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
