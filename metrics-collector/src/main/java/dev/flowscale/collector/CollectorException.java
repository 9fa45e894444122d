package dev.flowscale.collector;

/**
 * The one unchecked exception root of the metrics collector. Messages name the job, the source (URL
 * or job), the field at fault and how to fix it.
 */
public class CollectorException extends RuntimeException {

    public CollectorException(String message) {
        super(message);
    }

    public CollectorException(String message, Throwable cause) {
        super(message, cause);
    }
}
