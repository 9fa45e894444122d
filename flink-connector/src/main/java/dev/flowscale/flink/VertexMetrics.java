package dev.flowscale.flink;

import com.fasterxml.jackson.databind.JsonNode;
import dev.flowscale.autoscaler.metrics.Counters;
import dev.flowscale.runner.api.MetricsView.InstanceCounts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one vertex's per-subtask counters ({@code GET jobs/:id/vertices/:vid/metrics?get=...}) and
 * turns them into flowscale's cumulative DS2 counters. Flink's accumulated task times are used, not
 * its per-second gauges (averaged over the last minute): useful time is {@code
 * accumulateBusyTimeMs}, waiting for input {@code accumulateIdleTimeMs}, backpressure {@code
 * accumulateBackPressuredTimeMs}, observed time their sum, all read in the same fetch as the record
 * counters, so a window's rates mean what the policy thinks they mean. A source vertex's records in
 * are what its source operator emitted ({@code <source>.numRecordsOut}: the task counts no input)
 * and its backlog is the standard {@code pendingRecords} gauge (e.g. Kafka lag). A source's busy
 * time gets {@link #SOURCE_SECONDS_PER_RECORD} per emitted record on top of what Flink measured
 * ({@link #creditSources}).
 */
final class VertexMetrics {
    /**
     * Busy time credited to a source per record it emitted. Flink counts a task's busy time as the
     * time it is neither idle nor back-pressured, so a source back-pressured all window long shows
     * none (seen on Flink 2.3: 0 ms busy, 100 % back-pressured, hundreds of records a second
     * emitted), and a legacy {@code SourceFunction} reports none or NaN. A window with records and
     * no useful time is invalid, and the policy would block every decision while the job is
     * back-pressured, which is when one is needed. 10 ns per record bounds such a source's apparent
     * capacity at 100 M records/s per subtask (never the bottleneck) and adds 1 % busy time to a
     * subtask emitting 1 M records/s.
     */
    static final double SOURCE_SECONDS_PER_RECORD = 1e-8;

    /** Flink's REST server refuses request lines over 4096 characters: ask in chunks. */
    private static final int MAX_QUERY = 3000;

    private static final List<String> TASK =
            List.of(
                    "numRecordsIn",
                    "numRecordsOut",
                    "accumulateBusyTimeMs",
                    "accumulateIdleTimeMs",
                    "accumulateBackPressuredTimeMs");
    private static final Pattern SOURCE_OPERATOR =
            Pattern.compile("\\d+\\.(Source__.*)\\.numRecordsOut");
    private static final Pattern SPLIT =
            Pattern.compile(
                    "\\d+\\.Source__.*?\\.(?:split\\.(.+?)\\.watermark\\.|KafkaSourceReader\\.topic\\.(.+?\\.partition\\.\\d+)\\.currentOffset)");

    /** What the metric list of a source vertex tells: its source operator and its splits. */
    record SourceNames(Optional<String> operator, int splits) {}

    private VertexMetrics() {}

    /** Lists a source vertex's metric names ({@code GET jobs/:id/vertices/:vid/metrics}). */
    static SourceNames sourceNames(FlinkRestClient rest, String jobId, FlinkVertex vertex) {
        Optional<String> operator = Optional.empty();
        Set<String> splits = new HashSet<>();
        for (JsonNode m : rest.get(path(jobId, vertex))) {
            String name = m.path("id").asText();
            Matcher op = SOURCE_OPERATOR.matcher(name);
            if (op.matches()) {
                operator = Optional.of(op.group(1));
            }
            Matcher split = SPLIT.matcher(name);
            if (split.lookingAt()) {
                splits.add(split.group(1) != null ? split.group(1) : split.group(2));
            }
        }
        return new SourceNames(operator, splits.size());
    }

    static List<InstanceCounts> read(
            FlinkRestClient rest, String jobId, FlinkVertex vertex, Optional<String> source) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < vertex.parallelism(); i++) {
            for (String metric : TASK) {
                names.add(i + "." + metric);
            }
            int subtask = i;
            source.ifPresent(
                    op -> {
                        names.add(subtask + "." + op + ".numRecordsOut");
                        names.add(subtask + "." + op + ".pendingRecords");
                    });
        }
        Map<String, Double> values = fetch(rest, jobId, vertex, names);
        List<InstanceCounts> counters = new ArrayList<>();
        for (int i = 0; i < vertex.parallelism(); i++) {
            counters.add(counters(vertex, i, values, source));
        }
        return counters;
    }

    private static InstanceCounts counters(
            FlinkVertex v, int i, Map<String, Double> values, Optional<String> source) {
        double measured = required(values, v, i + ".accumulateBusyTimeMs") / 1000;
        double idle = required(values, v, i + ".accumulateIdleTimeMs") / 1000;
        double backpressure = required(values, v, i + ".accumulateBackPressuredTimeMs") / 1000;
        double out = required(values, v, i + ".numRecordsOut");
        double in =
                source.map(op -> values.getOrDefault(i + "." + op + ".numRecordsOut", Double.NaN))
                        .filter(x -> !x.isNaN())
                        .orElseGet(() -> required(values, v, i + ".numRecordsIn"));
        double backlog =
                source.map(op -> values.getOrDefault(i + "." + op + ".pendingRecords", 0.0))
                        .orElse(0.0);
        double busy = source.isPresent() && Double.isNaN(measured) ? 0 : measured;
        return Counters.ofSeconds(
                v.operatorId(), i, in, out, busy, idle, backpressure, backlog, v.finished());
    }

    /**
     * {@code counters} with {@link #SOURCE_SECONDS_PER_RECORD} per record read added to the useful
     * and observed times of the instances of {@code sources}. Applied after {@link MonotoneTimes}:
     * a back-pressured source's busy time also falls between reads, and holding the credited time
     * at its last value would swallow the credit.
     */
    static List<InstanceCounts> creditSources(List<InstanceCounts> counters, Set<String> sources) {
        List<InstanceCounts> out = new ArrayList<>(counters.size());
        for (InstanceCounts c : counters) {
            long credit =
                    sources.contains(c.operatorId())
                            ? Counters.nanos(c.recordsIn() * SOURCE_SECONDS_PER_RECORD)
                            : 0;
            out.add(
                    credit == 0
                            ? c
                            : Counters.withTimes(
                                    c,
                                    c.usefulNanos() + credit,
                                    c.waitInputNanos(),
                                    c.backpressureNanos()));
        }
        return out;
    }

    private static double required(Map<String, Double> values, FlinkVertex v, String name) {
        Double value = values.get(name);
        if (value == null) {
            throw new FlinkConnectorException(
                    "Flink reports no metric '"
                            + name
                            + "' for vertex '"
                            + v.operatorId()
                            + "' ("
                            + v.id()
                            + "); flowscale needs Flink 1.18 or later (accumulated busy, idle and"
                            + " back-pressured times) and a running subtask");
        }
        return value;
    }

    private static Map<String, Double> fetch(
            FlinkRestClient rest, String jobId, FlinkVertex vertex, List<String> names) {
        Map<String, Double> values = new HashMap<>();
        StringBuilder query = new StringBuilder();
        for (String name : names) {
            if (query.length() + name.length() > MAX_QUERY) {
                values.putAll(get(rest, jobId, vertex, query));
                query.setLength(0);
            }
            query.append(query.length() == 0 ? "" : ",").append(name);
        }
        values.putAll(get(rest, jobId, vertex, query));
        return values;
    }

    private static Map<String, Double> get(
            FlinkRestClient rest, String jobId, FlinkVertex vertex, CharSequence query) {
        Map<String, Double> values = new HashMap<>();
        for (JsonNode m : rest.get(path(jobId, vertex) + "?get=" + query)) {
            try {
                values.put(m.path("id").asText(), Double.parseDouble(m.path("value").asText()));
            } catch (NumberFormatException e) {
                // a gauge that has no value yet (e.g. pendingRecords before the first split)
            }
        }
        return values;
    }

    private static String path(String jobId, FlinkVertex vertex) {
        return "jobs/" + jobId + "/vertices/" + vertex.id() + "/metrics";
    }
}
