package dev.flowscale.autoscaler.realizer;

import java.util.Map;

/**
 * A decision arrived while a rescale of the same job was still in flight; it was refused, not
 * queued.
 */
public final class RescaleInProgressException extends RealizeException {

    public RescaleInProgressException(String job, Map<String, Integer> refused) {
        super(
                "rescale already in progress for job '"
                        + job
                        + "'; refused the decision "
                        + refused
                        + "; decide again once the current rescale has completed");
    }
}
