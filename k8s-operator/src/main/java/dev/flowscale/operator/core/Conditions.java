package dev.flowscale.operator.core;

import dev.flowscale.operator.api.StreamJobStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.util.Optional;

/**
 * The status conditions Ready, Scaling and Degraded; a transition time changes only with the
 * status.
 */
public final class Conditions {
    public static final String READY = "Ready";
    public static final String SCALING = "Scaling";
    public static final String DEGRADED = "Degraded";

    private Conditions() {}

    public static void set(
            StreamJobStatus status,
            String type,
            boolean value,
            String reason,
            String message,
            Long generation,
            Instant now) {
        String text = value ? "True" : "False";
        Optional<Condition> old = find(status, type);
        String since =
                old.filter(c -> text.equals(c.getStatus()))
                        .map(Condition::getLastTransitionTime)
                        .orElse(now.toString());
        Condition condition =
                new ConditionBuilder()
                        .withType(type)
                        .withStatus(text)
                        .withReason(reason)
                        .withMessage(message)
                        .withObservedGeneration(generation)
                        .withLastTransitionTime(since)
                        .build();
        status.conditions.removeIf(c -> type.equals(c.getType()));
        status.conditions.add(condition);
    }

    /** Degraded False: the spec can run (whichever engine runs it). */
    public static void specValid(StreamJobStatus status, Long generation, Instant now) {
        set(status, DEGRADED, false, "SpecValid", "the spec can run", generation, now);
    }

    public static Optional<Condition> find(StreamJobStatus status, String type) {
        return status.conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    public static boolean isTrue(StreamJobStatus status, String type) {
        return find(status, type).map(c -> "True".equals(c.getStatus())).orElse(false);
    }
}
