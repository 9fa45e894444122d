package dev.flowscale.autoscaler;

/**
 * The one unchecked exception root of the autoscaler module: {@link
 * dev.flowscale.autoscaler.metrics.CollectorException} when sampling a job's metrics fails, {@link
 * dev.flowscale.autoscaler.realizer.RealizeException} when carrying out a decision fails. Messages
 * name the job, the source or operator, the field at fault and how to fix it.
 */
public class AutoscalerException extends RuntimeException {

    public AutoscalerException(String message) {
        super(message);
    }

    public AutoscalerException(String message, Throwable cause) {
        super(message, cause);
    }
}
