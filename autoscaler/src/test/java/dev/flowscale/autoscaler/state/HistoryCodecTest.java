package dev.flowscale.autoscaler.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.SourceRateLog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class HistoryCodecTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    final HistoryCodec codec = new HistoryCodec(512 * 1024);

    @Test
    void aHistoryReadsBackEqualToWhatWasWritten() {
        ScalingHistory h = history(3, 10);

        ScalingHistory back = codec.decode(codec.encode(h));

        assertThat(back.decisions()).containsExactlyElementsOf(h.decisions());
        assertThat(back.rescales()).containsExactlyElementsOf(h.rescales());
        assertThat(means(back.sourceRates())).containsExactlyElementsOf(means(h.sourceRates()));
        assertThat(back.sourceRates().size("source")).isEqualTo(10);
    }

    @Test
    void aHistoryTooLargeKeepsItsNewestDecisionsAndEveryRescale() {
        ScalingHistory h = history(400, 5_000);
        HistoryCodec small = new HistoryCodec(16 * 1024);

        byte[] bytes = small.encode(h);
        ScalingHistory back = small.decode(bytes);

        assertThat(bytes.length).isLessThanOrEqualTo(16 * 1024);
        assertThat(back.decisions()).hasSizeLessThan(400).isNotEmpty();
        assertThat(back.decisions().get(back.decisions().size() - 1))
                .isEqualTo(h.decisions().get(399));
        assertThat(back.rescales()).containsExactlyElementsOf(h.rescales());
    }

    @Test
    void aStoredHistoryWithAWrongFieldIsRefusedNamingIt() throws IOException {
        String json =
                "{\"version\":1,\"decisions\":[{\"time\":\"yesterday\"}],\"rescales\":[],"
                        + "\"sourceRates\":{\"bucketSeconds\":60,\"series\":{}}}";

        assertThatThrownBy(() -> codec.decode(gzip(json)))
                .isInstanceOf(StateException.class)
                .hasMessageContaining("field 'operators' must be an array");
        assertThatThrownBy(() -> codec.decode(gzip(json.replace("\"version\":1", "\"version\":9"))))
                .hasMessageContaining("has version 9; this release reads version 1");
    }

    private static ScalingHistory history(int decisions, int buckets) {
        List<ScalingDecision> ds = new ArrayList<>();
        for (int i = 0; i < decisions; i++) {
            Instant at = T0.plusSeconds(30L * i);
            OperatorDecision op =
                    new OperatorDecision(
                            "flatMap",
                            2,
                            2 + i % 3,
                            3,
                            1234.5 + i,
                            Double.NaN,
                            Double.POSITIVE_INFINITY,
                            0.25,
                            List.of("reason " + i + " of flatMap"));
            ds.add(
                    i % 2 == 0
                            ? ScalingDecision.of(
                                    at, "wc", List.of("DS2 over the window " + i), List.of(op))
                            : ScalingDecision.blocked(
                                    at, "wc", BlockReason.WARMING_UP, "warming up " + i));
        }
        List<RescaleRecord> rescales =
                List.of(
                        new RescaleRecord(
                                T0,
                                Optional.of(T0.plusSeconds(12)),
                                Map.of("flatMap", 4),
                                false,
                                RescaleRecord.RESTART,
                                Optional.of(Duration.ofMillis(15_250))),
                        RescaleRecord.started(T0.plusSeconds(600), Map.of("flatMap", 3)));
        double[] means = new double[buckets];
        for (int i = 0; i < buckets; i++) {
            means[i] = i % 7 == 0 ? Double.NaN : 1000 + Math.sin(i) * 100;
        }
        SourceRateLog rates =
                new SourceRateLog(
                        Duration.ofMinutes(1),
                        Map.of("source", new SourceRateLog.Series(T0, means)));
        return new ScalingHistory(ds, rescales, rates);
    }

    private static List<Double> means(SourceRateLog log) {
        List<Double> all = new ArrayList<>();
        log.forEachSeries(
                (id, s) -> {
                    for (double m : s.means()) {
                        all.add(m);
                    }
                });
        return all;
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }
}
