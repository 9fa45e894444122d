package dev.flowscale.policy.ds2;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.MetricsWindow;
import dev.flowscale.policy.api.OperatorMetrics;
import dev.flowscale.policy.api.OperatorSpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Small builders for policy tests: a 10 s window ending at {@link #END}. */
final class Fixtures {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    static final Instant END = START.plusSeconds(10);

    private Fixtures() {}

    static Clock clockAt(Instant now) {
        return Clock.fixed(now, ZoneOffset.UTC);
    }

    /** Topology from "id:parallelism" specs and "a->b" edges. */
    static JobTopology topology(List<String> ops, String... edges) {
        List<OperatorSpec> specs = new ArrayList<>();
        for (String op : ops) {
            String[] parts = op.split(":");
            specs.add(OperatorSpec.of(parts[0], Integer.parseInt(parts[1])));
        }
        List<Edge> list = new ArrayList<>();
        for (String e : edges) {
            String[] parts = e.split("->");
            list.add(new Edge(parts[0], parts[1]));
        }
        return new JobTopology("job", specs, list);
    }

    static OperatorMetrics source(
            String id, int p, double trueRate, double offered, double backlog) {
        double observed = Math.min(trueRate, offered);
        return OperatorMetrics.of(id, p, trueRate, trueRate, observed, observed)
                .withSource(offered, backlog);
    }

    static OperatorMetrics op(String id, int p, double trueIn, double trueOut) {
        return OperatorMetrics.of(id, p, trueIn, trueOut, trueIn / 2, trueOut / 2);
    }

    static MetricsWindow window(OperatorMetrics... metrics) {
        return MetricsWindow.of(START, END, List.of(metrics));
    }
}
