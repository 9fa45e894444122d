package dev.flowscale.policy.ds2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowscale.policy.api.Edge;
import dev.flowscale.policy.api.JobTopology;
import dev.flowscale.policy.api.OperatorSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Estimates by topological position read exactly as the map by id they replace, and reads in
 * topological order cost no lookup by id.
 */
class EstimatesTest {

    private static final int OPERATORS = 1_000;

    /** Operators declared in reverse, each fed by one to three earlier ones, so order matters. */
    private static JobTopology graph(Random random) {
        List<OperatorSpec> specs = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        for (int i = 0; i < OPERATORS; i++) {
            specs.add(0, OperatorSpec.of("op" + i, 1));
            if (i >= 10) {
                String to = "op" + i;
                random.ints(1 + random.nextInt(3), 0, i)
                        .distinct()
                        .forEach(j -> edges.add(new Edge("op" + j, to)));
            }
        }
        return new JobTopology("job", specs, edges);
    }

    private static Estimates estimates(JobTopology t, Map<String, Ds2Formula.Estimate> byId) {
        return new Estimates(t, byId.values().toArray(new Ds2Formula.Estimate[0]));
    }

    private static Map<String, Ds2Formula.Estimate> byId(JobTopology t) {
        Map<String, Ds2Formula.Estimate> byId = new LinkedHashMap<>();
        int k = 0;
        for (String id : t.topologicalOrder()) {
            byId.put(id, new Ds2Formula.Estimate(id, k, 2 * k, 3 * k));
            k++;
        }
        return byId;
    }

    @Test
    void readsAsTheMapByIdInTopologicalOrder() {
        JobTopology t = graph(new Random(1));
        Map<String, Ds2Formula.Estimate> expected = byId(t);

        Estimates e = estimates(t, expected);

        assertThat(e).isEqualTo(expected);
        assertThat(e.keySet()).containsExactlyElementsOf(t.topologicalOrder());
        assertThat(e.values()).containsExactlyElementsOf(expected.values());
        assertThat(e.get("no such operator")).isNull();
        assertThat(e.containsKey("no such operator")).isFalse();
        assertThat(e.get(42)).isNull();
    }

    @Test
    void findsEveryOperatorReadInAnyOrder() {
        JobTopology t = graph(new Random(2));
        Map<String, Ds2Formula.Estimate> expected = byId(t);
        Estimates e = estimates(t, expected);
        List<String> shuffled = new ArrayList<>(t.topologicalOrder());
        Collections.shuffle(shuffled, new Random(3));

        for (String id : shuffled) {
            assertThat(e.get(id)).isSameAs(expected.get(id));
        }
    }

    @Test
    void readsInTopologicalOrderLookNoIdUp() {
        JobTopology t = graph(new Random(4));
        Estimates e = estimates(t, byId(t));

        for (String id : t.topologicalOrder()) {
            e.get(id); // once as a pass reads it, and again as the next step of the pass does
            e.get(id);
        }

        assertThat(e.lookups()).isZero();
    }
}
