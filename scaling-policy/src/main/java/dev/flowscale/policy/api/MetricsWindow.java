package dev.flowscale.policy.api;

import dev.flowscale.policy.PolicyException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Per-operator metrics measured over [start, end). */
public record MetricsWindow(Instant start, Instant end, Map<String, OperatorMetrics> operators) {

    public MetricsWindow {
        Checks.notNull(start, "metrics window start");
        Checks.notNull(end, "metrics window end");
        if (!end.isAfter(start)) {
            throw new PolicyException(
                    "metrics window end "
                            + end
                            + " is not after its start "
                            + start
                            + "; a window must have a positive length");
        }
        // A hash map, not Map.copyOf: the immutable map probes linearly, and ids that differ in
        // their last characters ("op1", "op2", ...) hash to neighbouring slots, which made every
        // lookup in a 1,000-operator window scan long runs of them. Linked, so that the metrics
        // keep the order they were given in: a collector lists them in the topology's order, and
        // a decision places them by position reading that order in sequence
        operators =
                Collections.unmodifiableMap(
                        new LinkedHashMap<>(Checks.notNull(operators, "metrics window operators")));
        operators.forEach(
                (id, m) -> {
                    if (id == null || m == null) {
                        throw new PolicyException(
                                "metrics window maps operator id "
                                        + id
                                        + " to metrics "
                                        + m
                                        + "; give every entry an id and the metrics measured for it");
                    }
                    if (!id.equals(m.operatorId())) {
                        throw new PolicyException(
                                "metrics window maps key '"
                                        + id
                                        + "' to metrics of operator '"
                                        + m.operatorId()
                                        + "'; key each entry by its operator id");
                    }
                });
    }

    public static MetricsWindow of(Instant start, Instant end, List<OperatorMetrics> metrics) {
        Map<String, OperatorMetrics> byId = new LinkedHashMap<>();
        metrics.forEach(m -> byId.put(m.operatorId(), m));
        return new MetricsWindow(start, end, byId);
    }

    public Duration length() {
        return Duration.between(start, end);
    }

    public Optional<OperatorMetrics> metrics(String operatorId) {
        return Optional.ofNullable(operators.get(operatorId));
    }
}
