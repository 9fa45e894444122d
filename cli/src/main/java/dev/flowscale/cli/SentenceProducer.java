package dev.flowscale.cli;

import dev.flowscale.engine.source.RateProfile;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The load of {@code demo --kafka}: sentences of {@value #WORDS} words ("w0".."w999": few hot keys)
 * written to a topic at the rate a {@link RateProfile} gives for the time since {@link #start}, in
 * ticks of 100 ms, sentence i to partition i mod the partition count.
 */
final class SentenceProducer implements AutoCloseable {
    static final int WORDS = 5;
    private static final int VOCABULARY = 1000;
    private static final long TICK_MS = 100;

    private final KafkaProducer<byte[], byte[]> kafka;
    private final String topic;
    private final int partitions;
    private final RateProfile rate;
    private final Clock clock;
    private final AtomicLong sent = new AtomicLong();
    private final ScheduledExecutorService ticks =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "demo-producer");
                        t.setDaemon(true);
                        return t;
                    });
    private long startMillis;
    private double owed;

    SentenceProducer(
            String bootstrapServers, String topic, int partitions, RateProfile rate, Clock clock) {
        this.kafka =
                new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                bootstrapServers,
                                ProducerConfig.LINGER_MS_CONFIG,
                                5),
                        new ByteArraySerializer(),
                        new ByteArraySerializer());
        this.topic = topic;
        this.partitions = partitions;
        this.rate = rate;
        this.clock = clock;
    }

    /** Starts writing; the profile's time 0 is now. */
    void start() {
        startMillis = clock.millis();
        ticks.scheduleAtFixedRate(this::tick, 0, TICK_MS, TimeUnit.MILLISECONDS);
    }

    /** Sentences written so far. */
    long sent() {
        return sent.get();
    }

    /** The sentences per second the profile asks for now. */
    double rateNow() {
        return rate.rateAt((clock.millis() - startMillis) / 1000.0);
    }

    private void tick() {
        owed += rateNow() * TICK_MS / 1000.0;
        while (owed >= 1) {
            long i = sent.getAndIncrement();
            kafka.send(
                    new ProducerRecord<>(
                            topic,
                            (int) (i % partitions),
                            null,
                            sentence(i).getBytes(StandardCharsets.UTF_8)));
            owed--;
        }
    }

    /** Sentence i: the words "w((7i + k) mod 1000)" for k below {@value #WORDS}. */
    static String sentence(long i) {
        List<String> words = new ArrayList<>();
        for (int k = 0; k < WORDS; k++) {
            words.add("w" + (7 * i + k) % VOCABULARY);
        }
        return String.join(" ", words);
    }

    @Override
    public void close() {
        ticks.shutdownNow();
        kafka.close();
    }
}
