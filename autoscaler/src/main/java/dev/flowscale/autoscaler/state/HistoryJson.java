package dev.flowscale.autoscaler.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flowscale.policy.api.BlockReason;
import dev.flowscale.policy.api.OperatorDecision;
import dev.flowscale.policy.api.Outcome;
import dev.flowscale.policy.api.RescaleRecord;
import dev.flowscale.policy.api.ScalingDecision;
import dev.flowscale.policy.api.ScalingHistory;
import dev.flowscale.policy.api.SourceRateLog;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link ScalingHistory} as a JSON tree, field by field, so that the stored form is explicit and
 * versioned ({@value #VERSION}) rather than whatever the records' accessors look like. Doubles are
 * written exactly (the shortest text that reads back as the same double; NaN and infinities as
 * strings), a source's rate buckets as the base64 of their IEEE 754 bytes. Reading checks every
 * field ({@link StateException} naming it).
 */
final class HistoryJson {
    static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private HistoryJson() {}

    static ObjectNode write(ScalingHistory h) {
        ObjectNode root = JSON.createObjectNode().put("version", VERSION);
        ArrayNode decisions = root.putArray("decisions");
        h.decisions().forEach(d -> decisions.add(decision(d)));
        ArrayNode rescales = root.putArray("rescales");
        h.rescales().forEach(r -> rescales.add(rescale(r)));
        root.set("sourceRates", rates(h.sourceRates()));
        return root;
    }

    static ScalingHistory read(JsonNode root) {
        int version = Fields.integer(root, "version");
        if (version != VERSION) {
            throw new StateException(
                    "stored autoscaler history has version "
                            + version
                            + "; this release reads version "
                            + VERSION
                            + " (the loop starts afresh)");
        }
        List<ScalingDecision> decisions = new ArrayList<>();
        Fields.array(root, "decisions").forEach(d -> decisions.add(decision(d)));
        List<RescaleRecord> rescales = new ArrayList<>();
        Fields.array(root, "rescales").forEach(r -> rescales.add(rescale(r)));
        return new ScalingHistory(decisions, rescales, rates(Fields.object(root, "sourceRates")));
    }

    private static ObjectNode decision(ScalingDecision d) {
        ObjectNode n = JSON.createObjectNode();
        n.put("time", d.time().toString())
                .put("job", d.jobName())
                .put("outcome", d.outcome().name());
        d.blockReason().ifPresent(b -> n.put("blockReason", b.name()));
        strings(n.putArray("reasons"), d.reasons());
        ArrayNode ops = n.putArray("operators");
        for (OperatorDecision op : d.operators().values()) {
            ObjectNode o = ops.addObject();
            o.put("id", op.operatorId())
                    .put("current", op.currentParallelism())
                    .put("new", op.newParallelism())
                    .put("recommended", op.recommendedParallelism());
            o.put("targetInputRate", op.targetInputRate())
                    .put("capacityPerInstance", op.capacityPerInstance())
                    .put("utilization", op.utilization())
                    .put("catchUpShare", op.catchUpShare());
            strings(o.putArray("reasons"), op.reasons());
        }
        return n;
    }

    private static ScalingDecision decision(JsonNode n) {
        Map<String, OperatorDecision> ops = new LinkedHashMap<>();
        for (JsonNode o : Fields.array(n, "operators")) {
            OperatorDecision op =
                    new OperatorDecision(
                            Fields.text(o, "id"),
                            Fields.integer(o, "current"),
                            Fields.integer(o, "new"),
                            Fields.integer(o, "recommended"),
                            Fields.real(o, "targetInputRate"),
                            Fields.real(o, "capacityPerInstance"),
                            Fields.real(o, "utilization"),
                            Fields.real(o, "catchUpShare"),
                            Fields.strings(o, "reasons"));
            ops.put(op.operatorId(), op);
        }
        Optional<BlockReason> block =
                n.hasNonNull("blockReason")
                        ? Optional.of(Fields.constant(n, "blockReason", BlockReason.class))
                        : Optional.empty();
        return new ScalingDecision(
                Fields.instant(n, "time"),
                Fields.text(n, "job"),
                Fields.constant(n, "outcome", Outcome.class),
                block,
                Fields.strings(n, "reasons"),
                ops);
    }

    private static ObjectNode rescale(RescaleRecord r) {
        ObjectNode n = JSON.createObjectNode().put("started", r.started().toString());
        r.finished().ifPresent(f -> n.put("finished", f.toString()));
        ObjectNode target = n.putObject("target");
        r.target().forEach(target::put);
        n.put("failed", r.failed()).put("path", r.path());
        r.inputCost().ifPresent(c -> n.put("inputCostNanos", c.toNanos()));
        return n;
    }

    private static RescaleRecord rescale(JsonNode n) {
        Map<String, Integer> target = new LinkedHashMap<>();
        Fields.object(n, "target")
                .properties()
                .forEach(
                        e ->
                                target.put(
                                        e.getKey(),
                                        Fields.integer(n, "target." + e.getKey(), e.getValue())));
        return new RescaleRecord(
                Fields.instant(n, "started"),
                n.hasNonNull("finished")
                        ? Optional.of(Fields.instant(n, "finished"))
                        : Optional.empty(),
                target,
                n.path("failed").asBoolean(false),
                Fields.text(n, "path"),
                n.hasNonNull("inputCostNanos")
                        ? Optional.of(Duration.ofNanos(n.get("inputCostNanos").asLong()))
                        : Optional.empty());
    }

    private static ObjectNode rates(SourceRateLog log) {
        ObjectNode n = JSON.createObjectNode().put("bucketSeconds", log.bucket().toSeconds());
        ObjectNode series = n.putObject("series");
        log.forEachSeries(
                (id, s) -> {
                    ByteBuffer bytes = ByteBuffer.allocate(8 * s.means().length);
                    for (double m : s.means()) {
                        bytes.putDouble(m);
                    }
                    series.putObject(id)
                            .put("first", s.first().toString())
                            .put("means", Base64.getEncoder().encodeToString(bytes.array()));
                });
        return n;
    }

    private static SourceRateLog rates(JsonNode n) {
        Map<String, SourceRateLog.Series> series = new LinkedHashMap<>();
        Fields.object(n, "series")
                .properties()
                .forEach(
                        e -> {
                            ByteBuffer bytes =
                                    ByteBuffer.wrap(
                                            Base64.getDecoder()
                                                    .decode(Fields.text(e.getValue(), "means")));
                            double[] means = new double[bytes.remaining() / 8];
                            for (int i = 0; i < means.length; i++) {
                                means[i] = bytes.getDouble();
                            }
                            series.put(
                                    e.getKey(),
                                    new SourceRateLog.Series(
                                            Fields.instant(e.getValue(), "first"), means));
                        });
        return new SourceRateLog(Duration.ofSeconds(Fields.integer(n, "bucketSeconds")), series);
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    /** The source rate log of {@code log} without its oldest buckets beyond {@code keep}. */
    static SourceRateLog newest(SourceRateLog log, int keep) {
        Map<String, SourceRateLog.Series> kept = new LinkedHashMap<>();
        log.forEachSeries(
                (id, s) -> {
                    int drop = Math.max(0, s.means().length - keep);
                    double[] means = Arrays.copyOfRange(s.means(), drop, s.means().length);
                    kept.put(
                            id,
                            new SourceRateLog.Series(
                                    s.first().plus(log.bucket().multipliedBy(drop)), means));
                });
        return new SourceRateLog(log.bucket(), kept);
    }
}
