package dev.flowscale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.engine.api.SourceReader;
import dev.flowscale.kafka.testing.WithKafkaBroker;
import dev.flowscale.runner.api.MetricName;
import dev.flowscale.testsupport.Await;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Drives the source's readers the way the engine's source task does (poll, snapshot the splits at a
 * barrier, deal them with assignSplits, restore) against a real broker.
 */
class KafkaSourceRescaleIT extends WithKafkaBroker {
    private static final int PARTITIONS = 12;
    private static final int PER_PARTITION = 60;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * One walk through all 36 ordered pairs (p, p') of parallelisms 1..6: each step reads a slice
     * of the topic at p, snapshots, and restores at p'. Every record is read exactly once in the
     * end.
     */
    @Test
    void offsetsSurviveEveryRescaleFromOneToSixInstancesWithoutGapOrOverlap() throws Exception {
        fill("rescale");
        KafkaSource<String> source = source("rescale");
        List<Integer> walk = walkThroughEveryPair(6);
        List<String> read = new ArrayList<>();
        List<SourceReader<String>> readers = fresh(source, walk.get(0));
        for (int step = 1; step < walk.size(); step++) {
            readSlice(readers, read, 15);
            List<Object> splits = snapshotAndClose(readers);
            assertThat(splits).as("one split per partition").hasSize(PARTITIONS);
            readers = restored(source, splits, walk.get(step));
        }
        readSlice(readers, read, PARTITIONS * PER_PARTITION - read.size());
        snapshotAndClose(readers);

        assertThat(read).hasSize(PARTITIONS * PER_PARTITION);
        assertThat(new HashSet<>(read)).as("no record read twice").hasSize(read.size());
    }

    @Test
    void eachReaderReportsTheLagOfItsPartitionsAsItsBacklog() throws Exception {
        fill("lag");
        KafkaSource<String> source = source("lag");
        MeterRegistry registry = new SimpleMeterRegistry();
        List<SourceReader<String>> readers =
                IntStream.range(0, 2)
                        .mapToObj(i -> source.createReader(new SourceInstance(i, 2, registry)))
                        .toList();
        assertThat(readers)
                .as("no lag signal before a reader has asked the broker, rather than 0")
                .allSatisfy(r -> assertThat(r.backlog()).isNull());
        List<String> read = new ArrayList<>();
        readSlice(readers, read, 100);
        long expected = PARTITIONS * PER_PARTITION - read.size();
        Await.until(
                TIMEOUT,
                "the lag of all partitions",
                () -> {
                    readers.forEach(r -> poll(r, List.of(), 0));
                    return readers.stream().mapToLong(SourceReader::backlog).sum() == expected;
                });
        KafkaSourceReader<String> first = (KafkaSourceReader<String>) readers.get(0);
        assertThat(first.lagByPartition()).containsOnlyKeys(0, 2, 4, 6, 8, 10);
        assertThat(lagGauge(registry, 0).value())
                .as("the lag gauge of instance 0, tagged with the topic")
                .isEqualTo(first.backlog().doubleValue());
        snapshotAndClose(readers);
        assertThat(registry.find(MetricName.KAFKA_LAG.micrometer()).gauges())
                .as("closed readers remove their gauges")
                .isEmpty();
    }

    /**
     * A source blocked on a slow downstream calls neither fetch nor poll for seconds; its lag must
     * still follow the log, or the arrival rate read over a window (records read plus the change of
     * the lag) counts only the part of the window before the lag was last refreshed.
     */
    @Test
    void theLagFollowsTheLogWhileTheReaderIsNotCalled() throws Exception {
        fill("blocked");
        KafkaSource<String> source = source("blocked");
        SourceReader<String> reader = source.createReader(new SourceInstance(0, 1));
        long all = PARTITIONS * PER_PARTITION;
        Await.until(
                TIMEOUT,
                "the lag of all partitions",
                () -> {
                    poll(reader, List.of(), 0);
                    return reader.backlog() != null && reader.backlog() == all;
                });
        topics.write("blocked", 3, List.of("late".getBytes(StandardCharsets.UTF_8)));
        Await.until(
                TIMEOUT,
                "the lag grown by the record written while the reader is not called",
                () -> reader.backlog() == all + 1);
        snapshotAndClose(List.of(reader));
    }

    private static Gauge lagGauge(MeterRegistry registry, int instance) {
        return registry.get(MetricName.KAFKA_LAG.micrometer())
                .tags("job", "test-job", "operator", "kafka", "topic", "lag")
                .tag("instance", Integer.toString(instance))
                .gauge();
    }

    private static void fill(String topic) {
        topics.create(topic, PARTITIONS);
        for (int p = 0; p < PARTITIONS; p++) {
            int partition = p;
            topics.write(
                    topic,
                    p,
                    IntStream.range(0, PER_PARTITION)
                            .mapToObj(i -> (partition + ":" + i).getBytes(StandardCharsets.UTF_8))
                            .toList());
        }
    }

    private static KafkaSource<String> source(String topic) {
        return KafkaSource.utf8(KafkaSourceConfig.of(broker.bootstrapServers(), topic));
    }

    /** Polls the readers in turn until {@code count} more records are read. */
    private static void readSlice(
            List<SourceReader<String>> readers, List<String> read, int count) {
        int goal = read.size() + count;
        Await.until(
                TIMEOUT,
                Duration.ofMillis(2),
                goal + " records read",
                () -> {
                    for (SourceReader<String> reader : readers) {
                        poll(reader, read, Math.min(5, goal - read.size()));
                    }
                    return read.size() >= goal;
                });
    }

    private static void poll(SourceReader<String> reader, List<String> read, int max) {
        try {
            // as the engine's source task does: a reader that fetches apart readies records first
            if (reader.fetchesApart()) {
                reader.fetch(max);
            }
            reader.poll(read::add, max);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<SourceReader<String>> fresh(KafkaSource<String> source, int p) {
        return IntStream.range(0, p)
                .mapToObj(i -> source.createReader(new SourceInstance(i, p)))
                .toList();
    }

    private static List<SourceReader<String>> restored(
            KafkaSource<String> source, List<Object> splits, int p) {
        List<List<Object>> dealt = source.assignSplits(splits, p);
        return IntStream.range(0, p)
                .mapToObj(i -> source.restoreReader(new SourceInstance(i, p), dealt.get(i)))
                .toList();
    }

    private static List<Object> snapshotAndClose(List<SourceReader<String>> readers)
            throws Exception {
        List<Object> splits = new ArrayList<>();
        for (SourceReader<String> reader : readers) {
            splits.addAll(reader.snapshotSplits());
            reader.close();
        }
        return splits;
    }

    /** A walk over 1..n that takes every ordered pair (a, b), loops included, once (Hierholzer). */
    static List<Integer> walkThroughEveryPair(int n) {
        Map<Integer, Deque<Integer>> unused = new HashMap<>();
        for (int a = 1; a <= n; a++) {
            Deque<Integer> targets = new ArrayDeque<>();
            IntStream.rangeClosed(1, n).forEach(targets::add);
            unused.put(a, targets);
        }
        Deque<Integer> stack = new ArrayDeque<>(List.of(1));
        List<Integer> walk = new ArrayList<>();
        while (!stack.isEmpty()) {
            Deque<Integer> out = unused.get(stack.peek());
            if (out.isEmpty()) {
                walk.add(0, stack.pop());
            } else {
                stack.push(out.poll());
            }
        }
        Set<List<Integer>> pairs = new HashSet<>();
        for (int i = 1; i < walk.size(); i++) {
            pairs.add(List.of(walk.get(i - 1), walk.get(i)));
        }
        assertThat(pairs).as("every ordered pair once").hasSize(n * n);
        assertThat(walk).hasSize(n * n + 1);
        return walk;
    }
}
