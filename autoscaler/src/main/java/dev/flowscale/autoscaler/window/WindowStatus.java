package dev.flowscale.autoscaler.window;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Whether the provider's current window is complete, and if not, why (instances that did not
 * report, a failed source, warm-up, a restart, too little history).
 *
 * @param complete every operator of the topology is in the current window
 * @param reasons what is missing, one line each, naming operator, instance and source
 * @param lastSample time of the last sample the source delivered, if any
 */
public record WindowStatus(boolean complete, List<String> reasons, Optional<Instant> lastSample) {

    public WindowStatus {
        reasons = List.copyOf(reasons);
    }

    static WindowStatus complete(Instant sample) {
        return new WindowStatus(true, List.of(), Optional.of(sample));
    }

    static WindowStatus incomplete(List<String> reasons, Optional<Instant> sample) {
        return new WindowStatus(false, reasons, sample);
    }

    static WindowStatus incomplete(String reason, Optional<Instant> sample) {
        return incomplete(List.of(reason), sample);
    }
}
