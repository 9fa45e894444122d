package dev.flowscale.flink;

/**
 * The one unchecked exception root of the Flink connector. Messages name the Flink REST endpoint,
 * the job, the field or vertex at fault and how to fix it.
 */
public class FlinkConnectorException extends RuntimeException {

    public FlinkConnectorException(String message) {
        super(message);
    }

    public FlinkConnectorException(String message, Throwable cause) {
        super(message, cause);
    }
}
