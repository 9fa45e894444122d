package dev.flowscale.comparison;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.autoscaler.JobAutoScalerContext;
import org.apache.flink.autoscaler.event.AutoScalerEventHandler;

/**
 * Keeps every event the Flink autoscaler raises (scaling reports, errors) for the harness to read.
 */
final class RecordingEventHandler
        implements AutoScalerEventHandler<String, JobAutoScalerContext<String>> {

    /** One event as the Kubernetes operator would have written it. */
    record Event(Type type, String reason, String message) {}

    /** The reason {@code JobAutoScalerImpl} gives error events (its own constant is not public). */
    static final String AUTOSCALER_ERROR_REASON = "AutoscalerError";

    private final List<Event> events = new ArrayList<>();

    @Override
    public void handleEvent(
            JobAutoScalerContext<String> context,
            Type type,
            String reason,
            String message,
            String messageKey,
            Duration interval) {
        events.add(new Event(type, reason, message));
    }

    List<Event> events() {
        return List.copyOf(events);
    }

    /** Events raised by errors inside the autoscaler (reason {@code AutoscalerError}). */
    List<Event> errors() {
        return events.stream().filter(e -> e.reason().equals(AUTOSCALER_ERROR_REASON)).toList();
    }
}
