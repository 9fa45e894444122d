package dev.flowscale.autoscaler.metrics;

import dev.flowscale.autoscaler.AutoscalerException;

/**
 * Sampling a job's metrics failed. Messages name the job, the source (URL or job), the field at
 * fault and how to fix it.
 */
public class CollectorException extends AutoscalerException {

    public CollectorException(String message) {
        super(message);
    }

    public CollectorException(String message, Throwable cause) {
        super(message, cause);
    }
}
