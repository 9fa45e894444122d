package dev.flowscale.charts;

import dev.flowscale.engine.api.SyntheticCost;
import dev.flowscale.engine.job.JobBuilder;
import dev.flowscale.engine.job.Sinks;
import dev.flowscale.engine.metrics.MetricsHttpServer;
import dev.flowscale.engine.runtime.JobConfig;
import dev.flowscale.engine.runtime.RunningJob;
import dev.flowscale.kafka.KafkaSource;
import dev.flowscale.kafka.KafkaSourceConfig;
import dev.flowscale.kafka.local.LocalKafkaBroker;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A third job, for the Kafka lag panel: a real broker (the connector's {@link LocalKafkaBroker}, a
 * child JVM), a topic of {@value #PARTITIONS} partitions holding {@value #RECORDS} records, and a
 * job in this JVM whose {@value #INSTANCES} source instances read it behind a map that takes 20 ms
 * a record, so the topic's lag stays above zero for the whole run. Its meters are served over HTTP
 * as the runner serves them.
 */
final class KafkaLagRunner implements AutoCloseable {
    static final String JOB = "kafka-lag";
    static final String TOPIC = "dashboard-sentences";
    static final int RECORDS = 20_000;
    private static final int PARTITIONS = 4;
    private static final int INSTANCES = 2;

    /** The Kafka clients log their whole configuration at INFO; the test log keeps warnings. */
    private static final Logger KAFKA_LOGS = Logger.getLogger("org.apache.kafka");

    private final LocalKafkaBroker broker;
    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final RunningJob job;
    private final MetricsHttpServer endpoint;

    KafkaLagRunner(Path dir) throws Exception {
        KAFKA_LOGS.setLevel(Level.WARNING);
        broker = LocalKafkaBroker.start(dir);
        fillTopic();
        JobBuilder builder = JobBuilder.named(JOB);
        builder.source(
                        "kafka",
                        KafkaSource.utf8(KafkaSourceConfig.of(broker.bootstrapServers(), TOPIC)))
                .parallelism(INSTANCES)
                .map("slow", s -> s)
                .cost(SyntheticCost.blocking(Duration.ofMillis(20)))
                .sink("count", Sinks.counting());
        job = builder.start(JobConfig.defaults().withMeterRegistry(registry));
        endpoint = MetricsHttpServer.start("127.0.0.1", 0, registry);
    }

    private void fillTopic() throws Exception {
        Map<String, Object> config =
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        try (Admin admin = Admin.create(config)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        }
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(
                        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                        new ByteArraySerializer(),
                        new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] value = ("sentence " + i).getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, value));
            }
            producer.flush();
        }
    }

    /** Where the job's metrics are served. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + endpoint.port());
    }

    @Override
    public void close() throws Exception {
        try (broker) {
            endpoint.close();
            job.close();
        }
    }
}
