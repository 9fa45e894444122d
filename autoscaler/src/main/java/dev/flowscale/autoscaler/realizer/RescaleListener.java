package dev.flowscale.autoscaler.realizer;

/**
 * Told about every rescale once it has ended, successful or not (a live view, the controller's
 * metrics, Kubernetes events). Called on the realizer's thread before the decision's stage
 * completes: keep it short; what it throws is logged and otherwise ignored.
 */
@FunctionalInterface
public interface RescaleListener {

    void onRescale(RescaleReport report);
}
