package dev.flowscale.operator;

import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RuntimeInfo;
import java.util.function.BooleanSupplier;

/**
 * Whether the operator process still does its work, for the liveness probe ({@code /health}): alive
 * while it starts; once started, alive while the SDK runs and every informer runs and has synced
 * (JOSDK starts the informers on every replica, the leader and those waiting to lead); dead once it
 * has stopped or an informer has died (a watch refused for good, the CRD deleted), so that the
 * kubelet restarts the pod instead of leaving a JVM that reconciles nothing.
 */
final class OperatorLiveness implements BooleanSupplier {
    private final BooleanSupplier started;
    private final BooleanSupplier healthy;
    private volatile boolean hasStarted;

    OperatorLiveness(BooleanSupplier started, BooleanSupplier healthy) {
        this.started = started;
        this.healthy = healthy;
    }

    static OperatorLiveness of(Operator operator) {
        RuntimeInfo info = operator.getRuntimeInfo();
        return new OperatorLiveness(info::isStarted, info::allEventSourcesAreHealthy);
    }

    @Override
    public boolean getAsBoolean() {
        if (!started.getAsBoolean()) {
            return !hasStarted;
        }
        hasStarted = true;
        try {
            return healthy.getAsBoolean();
        } catch (RuntimeException stoppedMeanwhile) {
            return false;
        }
    }
}
