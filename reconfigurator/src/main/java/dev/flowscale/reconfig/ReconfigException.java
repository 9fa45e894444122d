package dev.flowscale.reconfig;

/**
 * The root of the reconfigurator's unchecked exceptions; messages name the job, operator and fix.
 */
public class ReconfigException extends RuntimeException {

    public ReconfigException(String message) {
        super(message);
    }

    public ReconfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
